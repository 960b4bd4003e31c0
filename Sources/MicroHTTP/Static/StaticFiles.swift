import Basics
import Glibc

/// Serves the files below one folder, with ETag revalidation. Anything that would leave the
/// folder — `..` in any spelling, an encoded slash, a symbolic link pointing out (checked on the
/// open descriptor, so swapping a folder for a link mid-request cannot get past) — is a 404,
/// as are folders (no listings) and hidden files. Small files are answered from memory
/// (`FileCache`), larger ones with sendfile.
public struct StaticFiles: Sendable {
    /// The folder, as an absolute path with every symbolic link resolved.
    public let root: String
    public var cacheControl = "public, max-age=300"
    /// The small files, held in memory while they stay unchanged.
    let cache: FileCache

    public init(folder: String, maximumHeldFileSize: Int = 256 * 1024,
                heldBytes: Int = 8 * 1024 * 1024) throws(StaticFilesError) {
        guard let resolved = Self.realPath(folder) else { throw .missingFolder(folder) }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(folder) }
        root = resolved
        cache = FileCache(maximumFileSize: maximumHeldFileSize, budget: heldBytes)
    }

    /// The answer for the decoded path segments below the folder.
    public func response(for segments: ArraySlice<String>, headers: Headers) throws(HTTPError) -> Response {
        let relative = segments.joined(separator: "/")
        let notFound = HTTPError(.notFound, "There is no file at /\(relative).")
        guard !segments.isEmpty,
              !segments.contains(where: { $0.isEmpty || PathDecoding.isTraversal($0) || $0.hasPrefix(".") })
        else { throw notFound }
        let named = root + "/" + relative
        guard let identity = FileStamp(path: named), identity.isRegularFile else {
            cache.remove(relative)
            throw notFound
        }
        // Held only after the resolved path was found inside the folder, and only while the file
        // is that same file: a hit needs no second look at the path.
        if let entry = cache.entry(relative, matching: identity) {
            return answer(etag: entry.etag, named: segments.last!, headers: headers) { .bytes(entry.bytes) }
        }
        // Opened, then checked: the descriptor is what gets read or sent, and it is inside the folder.
        guard let fd = ConfinedOpen.open(relative, below: root) else { throw notFound }
        if cache.canHold(identity.size), let entry = cache.load(relative, descriptor: fd) {
            close(fd)
            return answer(etag: entry.etag, named: segments.last!, headers: headers) { .bytes(entry.bytes) }
        }
        // Its own status, not the one taken before: the name may have moved to a new file since.
        let file = OpenFile(adopting: fd)
        return answer(etag: FileStamp(file.info).etag, named: segments.last!, headers: headers) { .file(file) }
    }

    /// 304 when the client holds this version, otherwise the body with its type.
    private func answer(etag: String, named name: String, headers: Headers, body: () -> ResponseBody) -> Response {
        var responseHeaders = Headers([("ETag", etag), ("Cache-Control", cacheControl)])
        if let candidates = headers["If-None-Match"], Self.matches(candidates, etag) {
            return Response(status: .notModified, headers: responseHeaders)
        }
        let fileExtension = name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? ""
        responseHeaders.add("Content-Type", MediaType.forExtension(fileExtension))
        return Response(headers: responseHeaders, body: body())
    }

    /// `If-None-Match` holds `*` or a list of (possibly weak) tags.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingPrefix(" ").trimmingPrefix("W/")
            return tag == "*" || tag.split(separator: " ").first.map(String.init) == etag
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

public enum StaticFilesError: Error, CustomStringConvertible {
    case missingFolder(String)
    case notAFolder(String)

    public var description: String {
        switch self {
        case .missingFolder(let path): "the folder \(path) does not exist"
        case .notAFolder(let path): "\(path) is not a folder"
        }
    }
}
