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
