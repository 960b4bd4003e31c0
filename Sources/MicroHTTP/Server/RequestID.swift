/// A request's id, unique within a process and unlikely to repeat across restarts: its server's
/// random prefix and a counter, e.g. `5f3a9c1e-1a`. Kept as the two numbers and written as text
/// only where it is shown: the response header takes its bytes (`write`), and a `String` is made
/// only for a log line or an error page; most requests never need one.
struct RequestID: Sendable, Equatable {
    let prefix: UInt32
    let number: UInt64

    /// The id before a request has one.
    static let none = RequestID(prefix: 0, number: 0)

    /// The most bytes an id takes: 8 hex digits, the `-` and 16 hex digits.
    static let capacity = 25

    /// Its length as text.
    var count: Int { Self.digits(UInt64(prefix)) + 1 + Self.digits(number) }

    private static func digits(_ value: UInt64) -> Int { max(1, (64 - value.leadingZeroBitCount + 3) / 4) }

    /// Writes the id's bytes at `base` (at least `capacity` of them writable); returns how many.
    /// Through pointers: ids are written on every request.
    @discardableResult
    func write(to base: UnsafeMutablePointer<UInt8>) -> Int {
        let prefixCount = Self.digits(UInt64(prefix))
        Self.writeHex(UInt64(prefix), count: prefixCount, to: base)
        base[prefixCount] = UInt8(ascii: "-")
        let numberCount = Self.digits(number)
        Self.writeHex(number, count: numberCount, to: base + prefixCount + 1)
        return prefixCount + 1 + numberCount
    }

    private static func writeHex(_ value: UInt64, count: Int, to base: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var position = count
        while position > 0 {
            position -= 1
            let digit = UInt8(truncatingIfNeeded: rest & 0xF)
            base[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
            rest >>= 4
        }
    }

    /// The id as text.
    var text: String {
        String(unsafeUninitializedCapacity: Self.capacity) { write(to: $0.baseAddress!) }
    }

    /// The id's bytes, NUL-terminated, for C during `body`.
    func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity + 1) { buffer in
            let base = buffer.baseAddress!
            base[write(to: base)] = 0
            return base.withMemoryRebound(to: CChar.self, capacity: Self.capacity + 1) { body($0) }
        }
    }
}
