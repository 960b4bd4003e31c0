import Glibc

extension Response {
    /// Bodies below this many bytes go as they are: a gzip member alone costs 18 bytes and a
    /// packet holds 1,400, so a smaller one gains nothing a client would notice.
    static let compressionThreshold = 1024

    /// Whether the server may compress this response for a client that accepts it: a text body in
    /// memory, of a type that compresses, large enough to gain, whose handler did not choose a
    /// coding itself (no `Content-Encoding`, no `Vary: Accept-Encoding`). Such a response depends
    /// on `Accept-Encoding` and says so with `Vary`.
    var isCompressible: Bool {
        if status == .noContent || status == .notModified { return false }
        switch body {
        case .bytes(let bytes) where bytes.count >= Self.compressionThreshold: break
        case .spliced: break
        default: return false
        }
        guard headers["Content-Encoding"] == nil, var type = headers["Content-Type"] else { return false }
        if let vary = headers["Vary"], vary.lowercased().contains("accept-encoding") { return false }
        return type.withUTF8 { Self.compressesWell(UnsafeRawBufferPointer($0)) }
    }

    /// Text, JSON, JavaScript, SVG, XML and manifests; images, fonts and archives are compressed already.
    static func compressesWell(_ type: UnsafeRawBufferPointer) -> Bool {
        func starts(_ prefix: StaticString) -> Bool {
            type.count >= prefix.utf8CodeUnitCount && memcmp(type.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
        }
        return starts("text/") || starts("application/json") || starts("application/javascript")
            || starts("image/svg+xml") || starts("application/manifest+json") || starts("application/xml")
    }
}
