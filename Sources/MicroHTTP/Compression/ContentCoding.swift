/// How a response body is encoded on the wire: as is, gzip (RFC 1952) or brotli (RFC 7932).
public enum ContentCoding: UInt8, Sendable, CaseIterable {
    case identity, gzip, brotli

    /// The `Content-Encoding` token; nil for identity, which is sent without the header.
    public var token: StaticString? {
        switch self {
        case .identity: nil
        case .gzip: "gzip"
        case .brotli: "br"
        }
    }

    /// The entity tag of this coding's bytes, from the identity's: a cache must never take a
    /// gzip body for the identity body it revalidated, so every coding has its own tag.
    public func etag(_ identity: String) -> String {
        switch self {
        case .identity: return identity
        case .gzip: return Self.suffixed(identity, "-gzip")
        case .brotli: return Self.suffixed(identity, "-br")
        }
    }

    /// `"abc"` → `"abc-gzip"`; `W/"abc"` → `W/"abc-gzip"`; a tag without quotes gets the suffix at the end.
    private static func suffixed(_ tag: String, _ suffix: String) -> String {
        guard tag.hasSuffix("\""), tag.utf8.count >= 2 else { return tag + suffix }
        return String(tag.dropLast()) + suffix + "\""
    }
}

extension ContentCoding {
    /// `bytes` compressed whole at `level` (gzip 1…9, brotli 0…11); identity gives them back.
    /// For assets made once, benches and tests, not for responses (the server compresses those).
    public func compress(_ bytes: [UInt8], level: Int) -> [UInt8] {
        bytes.withUnsafeBytes { bytes in
            switch self {
            case .identity: Array(bytes)
            case .gzip: Gzip.compress(bytes, level: Int32(level))
            case .brotli: BrotliEncoder.compress(bytes, quality: UInt32(level))
            }
        }
    }

    /// `bytes` decoded; nil when they are not a whole, valid stream of this coding.
    public func decode(_ bytes: [UInt8]) -> [UInt8]? {
        switch self {
        case .identity: bytes
        case .gzip: Gzip.decompress(bytes)
        case .brotli: BrotliEncoder.decompress(bytes)
        }
    }
}
