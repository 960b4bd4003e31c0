import Glibc

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

    /// The method libmicrohttpd read; the common ones without building a string.
    init(cString: UnsafePointer<CChar>) {
        if strcmp(cString, "GET") == 0 {
            self = .get
        } else if strcmp(cString, "POST") == 0 {
            self = .post
        } else if strcmp(cString, "HEAD") == 0 {
            self = .head
        } else {
            self.init(String(cString: cString))
        }
    }

    /// Methods whose bodies the server decodes as forms or keeps as raw bytes.
    var carriesBody: Bool { self == .post || self == .put || self == .patch || self == .delete }
}
