import Glibc

/// Serves the files below one folder, with ETag revalidation. Anything that would leave the
/// folder — `..` in any spelling, an encoded slash, a symbolic link pointing out — is a 404,
/// as are folders (no listings) and hidden files.
public struct StaticFiles: Sendable {
    /// The folder, as an absolute path with every symbolic link resolved.
    public let root: String
    public var cacheControl = "public, max-age=300"

    public init(folder: String) throws(StaticFilesError) {
        guard let resolved = Self.realPath(folder) else { throw .missingFolder(folder) }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(folder) }
        root = resolved
    }

    /// The answer for the decoded path segments below the folder.
    public func response(for segments: ArraySlice<String>, headers: Headers) throws(HTTPError) -> Response {
        let notFound = HTTPError(.notFound, "There is no file at /\(segments.joined(separator: "/")).")
        guard !segments.isEmpty,
              !segments.contains(where: { $0.isEmpty || PathDecoding.isTraversal($0) || $0.hasPrefix(".") }),
              let path = Self.realPath(root + "/" + segments.joined(separator: "/")),
              path.hasPrefix(root + "/")
        else { throw notFound }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw notFound }

        let modified = UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec)
        let etag = "\"\(String(UInt64(info.st_size), radix: 16))-\(String(modified, radix: 16))\""
        var responseHeaders = Headers([("ETag", etag), ("Cache-Control", cacheControl)])
        if let candidates = headers["If-None-Match"], Self.matches(candidates, etag) {
            return Response(status: .notModified, headers: responseHeaders)
        }
        let name = segments.last!
        let fileExtension = name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? ""
        responseHeaders.add("Content-Type", MediaType.forExtension(fileExtension))
        do {
            return Response(headers: responseHeaders, body: .file(try OpenFile(path: path)))
        } catch {
            throw notFound
        }
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
