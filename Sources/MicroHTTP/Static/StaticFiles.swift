import Basics
import Glibc

/// Serves the files below one folder, with ETag revalidation. Anything that would leave the
/// folder — `..` in any spelling, an encoded slash, a symbolic link pointing out (checked on the
/// open descriptor, so swapping a folder for a link mid-request cannot get past) — is a 404,
/// as are folders (no listings) and hidden files. Small files are answered from memory
/// (`FileCache`), text ones in gzip or brotli made once when they are read; larger ones with
/// sendfile.
///
/// Every held file also answers under a fingerprinted name, `app.1a2b3c4d.css` for `app.css`
/// (`fingerprints()` gives the names for pages to link): that name changes with the file, so it
/// is cached for a year (`immutable`); the plain name keeps its short `cacheControl`.
public struct StaticFiles: Sendable {
    /// The folder, as an absolute path with every symbolic link resolved.
    public let root: String
    /// The path the folder is served under (`/assets`), for the 404 page to name the path asked for.
    public let mount: String
    public var cacheControl = "max-age=300"
    /// For a fingerprinted name whose fingerprint is the file's: it never changes.
    public static let immutable = "max-age=31536000, immutable"
    /// The small files, held in memory while they stay unchanged.
    let cache: FileCache

    /// `compression` makes the compressed forms of a file that changed while serving.
    public init(folder: String, mountedAt mount: String = "", maximumHeldFileSize: Int = 256 * 1024,
                heldBytes: Int = 8 * 1024 * 1024, compression: WorkPool? = nil) throws(StaticFilesError) {
        guard let resolved = Self.realPath(folder) else { throw .missingFolder(folder) }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(folder) }
        root = resolved
        self.mount = mount
        cache = FileCache(maximumFileSize: maximumHeldFileSize, budget: heldBytes, compression: compression)
    }

    /// The answer for the decoded path segments below the folder.
    public func response(for segments: ArraySlice<String>, headers: Headers) throws(HTTPError) -> Response {
        let relative = segments.joined(separator: "/")
        let notFound = HTTPError(.notFound, "There is no file at \(mount)/\(relative).")
        guard !segments.isEmpty,
              !segments.contains(where: { $0.isEmpty || PathDecoding.isTraversal($0) || $0.hasPrefix(".") })
        else { throw notFound }
        if let found = try? file(relative, named: segments.last!, headers: headers, cacheControl: cacheControl) {
            return found
        }
        // `app.1a2b3c4d.css`: the held `app.css`, for a year if the fingerprint is its own.
        guard let (plain, fingerprint) = Fingerprint.split(segments.last!) else { throw notFound }
        let plainRelative = (segments.dropLast().map { $0 + "/" }.joined()) + plain
        return try file(plainRelative, named: plain, headers: headers) { $0 == fingerprint ? Self.immutable : cacheControl }
    }

    private func file(_ relative: String, named name: String, headers: Headers,
                      cacheControl: String) throws(HTTPError) -> Response {
        try file(relative, named: name, headers: headers) { _ in cacheControl }
    }

    /// The file at `relative`; `caching` picks `Cache-Control` from a held file's fingerprint.
    private func file(_ relative: String, named name: String, headers: Headers,
                      caching: (String?) -> String) throws(HTTPError) -> Response {
        let notFound = HTTPError(.notFound, "There is no file at \(mount)/\(relative).")
        let named = root + "/" + relative
        guard let identity = FileStamp(path: named), identity.isRegularFile else {
            cache.remove(relative)
            throw notFound
        }
        // Held only after the resolved path was found inside the folder, and only while the file
        // is that same file: a hit needs no second look at the path.
        if let entry = cache.entry(relative, matching: identity) {
            return answer(entry, named: name, headers: headers, cacheControl: caching(entry.fingerprint))
        }
        // Opened, then checked: the descriptor is what gets read or sent, and it is inside the folder.
        guard let fd = ConfinedOpen.open(relative, below: root) else { throw notFound }
        if cache.canHold(identity.size),
           let entry = cache.load(relative, descriptor: fd, sharedAs: named, compressible: Self.compressible(name)) {
            close(fd)
            return answer(entry, named: name, headers: headers, cacheControl: caching(entry.fingerprint))
        }
        // Its own status, not the one taken before: the name may have moved to a new file since.
        let file = OpenFile(adopting: fd)
        return answer(etag: FileStamp(file.info).etag, named: name, headers: headers, cacheControl: caching(nil)) { .file(file) }
    }

    /// A held file in the coding the client prefers, when it was compressed.
    private func answer(_ entry: FileCache.Entry, named name: String, headers: Headers, cacheControl: String) -> Response {
        guard let compressed = entry.compressed else {
            return answer(etag: entry.etag, named: name, headers: headers, cacheControl: cacheControl) { .bytes(entry.bytes) }
        }
        let coding = AcceptEncoding.preferred(headers["Accept-Encoding"])
        guard let bytes = compressed.bytes(coding) else {
            return answer(etag: entry.etag, named: name, headers: headers, cacheControl: cacheControl,
                          vary: true) { .bytes(entry.bytes) }
        }
        var response = answer(etag: coding.etag(entry.etag), named: name, headers: headers, cacheControl: cacheControl,
                              vary: true) { .bytes(bytes) }
        if response.status == .ok { response.headers.add("Content-Encoding", String(describing: coding.token!)) }
        return response
    }

    /// 304 when the client holds this version, otherwise the body with its type. `vary`: this
    /// answer chose its coding itself (which the server then leaves alone) and says so.
    private func answer(etag: String, named name: String, headers: Headers, cacheControl: String,
                        vary: Bool = false, body: () -> ResponseBody) -> Response {
        var responseHeaders = Headers([("ETag", etag), ("Cache-Control", cacheControl)])
        if vary { responseHeaders.add("Vary", "Accept-Encoding") }
        if let candidates = headers["If-None-Match"], Self.matches(candidates, etag) {
            return Response(status: .notModified, headers: responseHeaders)
        }
        responseHeaders.add("Content-Type", MediaType.forExtension(Self.fileExtension(name)))
        return Response(headers: responseHeaders, body: body())
    }

    private static func fileExtension(_ name: String) -> Substring {
        name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? ""
    }

    /// Whether a file of this name is text that compresses (CSS, scripts, SVG, JSON…).
    static func compressible(_ name: String) -> Bool {
        var type = MediaType.forExtension(fileExtension(name))
        return type.withUTF8 { Response.compressesWell(UnsafeRawBufferPointer($0)) }
    }

    /// Reads every file of the folder that fits in memory (compressing the text ones now) and
    /// gives its fingerprinted name: `images/logo.svg` → `images/logo.1a2b3c4d.svg`. At start, and
    /// again to notice edits (a file read before is only looked at).
    /// Changes when a file below the folder does (see `FolderSignature`); cheap enough to ask
    /// every second, unlike `fingerprints()`.
    public func signature() -> UInt64 { FolderSignature.of(root) }

    public func fingerprints() -> [String: String] {
        var names: [String: String] = [:]
        for relative in Self.files(below: root, prefix: "") {
            let path = root + "/" + relative
            guard let identity = FileStamp(path: path), identity.isRegularFile else { continue }
            var entry = cache.entry(relative, matching: identity)
            // Opened confined, as a request would: a link that leads out of the folder is never read.
            if entry == nil, cache.canHold(identity.size), let fd = ConfinedOpen.open(relative, below: root) {
                entry = cache.load(relative, descriptor: fd, sharedAs: path, compressible: Self.compressible(relative),
                                   compressNow: true)
                close(fd)
            }
            if let entry { names[relative] = Fingerprint.name(relative, entry.fingerprint) }
        }
        return names
    }

    /// Relative paths of the regular files below `folder`, hidden ones and links out left out.
    private static func files(below folder: String, prefix: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix(".") else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                found += files(below: path, prefix: prefix + name + "/")
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                found.append(prefix + name)
            }
        }
        return found.sorted()
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
