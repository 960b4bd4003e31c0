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

    /// The method libmicrohttpd read; the common ones without building a string, told by their
    /// first four bytes as one word (read only up to the NUL or the fifth byte, so never past the
    /// string) and the byte after them.
    init(cString: UnsafePointer<CChar>) {
        let bytes = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        if bytes[0] != 0, bytes[1] != 0, bytes[2] != 0 {
            let word = UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self)
            switch UInt32(littleEndian: word) {
            case Self.getWord: self = .get; return
            case Self.postWord where bytes[4] == 0: self = .post; return
            case Self.headWord where bytes[4] == 0: self = .head; return
            default: break
            }
        }
        self.init(String(cString: cString))
    }

    /// `GET` and its NUL, `POST` and `HEAD`, the first byte lowest.
    private static var getWord: UInt32 { 0x0054_4547 }
    private static var postWord: UInt32 { 0x5453_4F50 }
    private static var headWord: UInt32 { 0x4441_4548 }

    /// Methods whose bodies the server decodes as forms or keeps as raw bytes.
    var carriesBody: Bool { self == .post || self == .put || self == .patch || self == .delete }
}
