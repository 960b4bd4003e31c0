import MicroHTTP

/// The anonymous visitor: a random id kept in an HttpOnly, SameSite=Lax cookie.
public struct Visitor: Sendable, Equatable {
    public static let cookieName = "visitor"
    /// A year: the id only has to outlive a browsing habit, not identify a person.
    static let lifetime = 365 * 24 * 3600

    public let id: String
    /// Whether the id was made for this request and must be sent as a cookie.
    public let isNew: Bool

    /// The visitor the request's cookie names, or a new one.
    public init(request: Request) {
        if let id = request.cookies[Self.cookieName], Self.isWellFormed(id) {
            self.id = id
            isNew = false
        } else {
            var generator = SystemRandomNumberGenerator()
            id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(16) }.joined()
            isNew = true
        }
    }

    /// Adds the visitor cookie to `response` when the id is new.
    public func persist(in response: inout Response) {
        guard isNew else { return }
        response.setCookie(SetCookie(name: Self.cookieName, value: id, maxAge: Self.lifetime))
    }

    /// 32 lowercase hex digits; checked on every request, so over the bytes with a plain loop.
    static func isWellFormed(_ id: String) -> Bool {
        // Read in place (a copy for `withUTF8` costs a retain and a release).
        if let wellFormed = id.utf8.withContiguousStorageIfAvailable(isWellFormed(_:)) { return wellFormed }
        var id = id
        return id.withUTF8(isWellFormed(_:))
    }

    private static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 32 else { return false }
        // Wrapping subtraction turns each range test into one unsigned comparison; no
        // branch per byte, so the loop vectorises.
        var bad: UInt8 = 0
        for byte in bytes { bad |= (byte &- 0x30 > 9 ? 1 : 0) & (byte &- 0x61 > 5 ? 1 : 0) }
        return bad == 0
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
