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
        return headers.allowCompression
    }

    /// The fields' part of `isCompressible`, found once per set of fields (`Headers`). One pass,
    /// told apart by length first, read in place (a copy of each field cost a retain and a
    /// release of its name and value).
    static func fieldsAllowCompression(_ fields: [(name: String, value: String)]) -> Bool {
        fields.withUnsafeBufferPointer { fields in
            var type: Int?
            for index in fields.indices {
                switch fields[index].name.utf8.count {
                case 16 where fields[index].name.caseInsensitiveEquals("Content-Encoding"): return false
                case 4 where fields[index].name.caseInsensitiveEquals("Vary"):
                    if fields[index].value.lowercased().contains("accept-encoding") { return false }
                case 12 where type == nil && fields[index].name.caseInsensitiveEquals("Content-Type"): type = index
                default: break
                }
            }
            guard let type else { return false }
            return fields[type].value.utf8.withContiguousStorageIfAvailable {
                Self.compressesWell(UnsafeRawBufferPointer($0))
            } ?? Self.compressesWell(Array(fields[type].value.utf8))
        }
    }

    private static func compressesWell(_ type: [UInt8]) -> Bool {
        type.withUnsafeBytes { compressesWell($0) }
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
