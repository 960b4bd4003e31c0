/// A rendered page that can be served again with another visitor's token in its token slots.
public struct PageTemplate: Sendable {
    /// The page as rendered for the first visitor.
    public let bytes: [UInt8]
    /// Where that visitor's token stands, in order.
    public let tokenRanges: [Range<Int>]

    public init(bytes: [UInt8], tokenRanges: [Range<Int>]) {
        self.bytes = bytes
        self.tokenRanges = tokenRanges
    }

    /// The page for `token`: byte for byte what rendering it with that token gives.
    /// The token must need no escaping (the CSRF token is URL-safe base64).
    public func filled(with token: String) -> [UInt8] {
        let tokenBytes = Array(token.utf8)
        var page = [UInt8]()
        page.reserveCapacity(bytes.count + tokenRanges.count * max(0, tokenBytes.count - (tokenRanges.first?.count ?? 0)))
        var start = 0
        for range in tokenRanges {
            page.append(contentsOf: bytes[start..<range.lowerBound])
            page.append(contentsOf: tokenBytes)
            start = range.upperBound
        }
        page.append(contentsOf: bytes[start...])
        return page
    }
}
