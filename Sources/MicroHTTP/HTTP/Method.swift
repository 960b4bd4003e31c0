/// An HTTP request method. Unknown methods are kept verbatim so the router can answer 405.
public struct Method: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let get = Method("GET")
    public static let head = Method("HEAD")
    public static let post = Method("POST")
    public static let put = Method("PUT")
    public static let patch = Method("PATCH")
    public static let delete = Method("DELETE")
    public static let options = Method("OPTIONS")

    /// Methods whose bodies the server decodes as forms or keeps as raw bytes.
    var carriesBody: Bool { self == .post || self == .put || self == .patch || self == .delete }
}
