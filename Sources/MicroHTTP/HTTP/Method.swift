import Glibc

/// An HTTP request method. Unknown methods are kept verbatim so the router can answer 405.
public struct Method: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // Computed, not stored: a small string literal is built in registers, where a stored static
    // is reached through a lazy-initialisation check on every comparison (several a request).
    public static var get: Method { Method("GET") }
    public static var head: Method { Method("HEAD") }
    public static var post: Method { Method("POST") }
    public static var put: Method { Method("PUT") }
    public static var patch: Method { Method("PATCH") }
    public static var delete: Method { Method("DELETE") }
    public static var options: Method { Method("OPTIONS") }

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
