/// A request's id, unique within a process and unlikely to repeat across restarts: its server's
/// random prefix and a counter, e.g. `5f3a9c1e-1a`. Kept as numbers and written as text only
/// where it is shown: the response header and the report log's line take its bytes (`write`),
/// and a `String` is made only when someone asks (a log line, an error page).
public struct RequestID: Sendable, Equatable {
    /// The prefix's hex digits as ASCII, the first in the lowest byte: written with one store.
    @usableFromInline let prefixText: UInt64
    @usableFromInline let prefixCount: Int
    public let number: UInt64

    /// The id before a request has one: `RequestID(prefix: 0, number: 0)`, spelled out, so that
    /// it is made in place.
    @inlinable
    public static var none: RequestID { RequestID(prefixText: 0x30, prefixCount: 1, number: 0) }

    /// The most bytes an id takes: 8 hex digits, the `-` and 16 hex digits.
    @inlinable
    public static var capacity: Int { 25 }

    @inlinable
    init(prefixText: UInt64, prefixCount: Int, number: UInt64) {
        self.prefixText = prefixText
        self.prefixCount = prefixCount
        self.number = number
    }

    public init(prefix: UInt32, number: UInt64) {
        var text: UInt64 = 0
        let count = Self.digits(UInt64(prefix))
        for index in 0..<count {
            text |= UInt64(Self.hex(UInt64(prefix) >> (4 * (count - 1 - index)))) << (8 * index)
        }
        prefixText = text
        prefixCount = count
        self.number = number
    }

    /// The same prefix with another number.
    @inlinable
    init(_ template: RequestID, number: UInt64) {
        self.init(prefixText: template.prefixText, prefixCount: template.prefixCount, number: number)
    }

    @inlinable
    public func numbered(_ number: UInt64) -> RequestID { RequestID(self, number: number) }

    /// Its length as text.
    @inlinable
    public var count: Int { prefixCount + 1 + Self.digits(number) }

    @inlinable
    static func digits(_ value: UInt64) -> Int { max(1, (64 - value.leadingZeroBitCount + 3) / 4) }

    /// The hex digit of the value's lowest four bits.
    @inlinable
    static func hex(_ value: UInt64) -> UInt8 {
        let digit = UInt8(truncatingIfNeeded: value & 0xF)
        return digit < 10 ? 0x30 &+ digit : 0x57 &+ digit
    }

    /// Writes the id's bytes at `base` (at least `capacity` of them writable: the prefix's store
    /// may fill up to eight bytes past a short id's end); returns how many. Through pointers, the
    /// prefix in one store: ids are written on every request.
    @inlinable @discardableResult
    public func write(to base: UnsafeMutablePointer<UInt8>) -> Int {
        UnsafeMutableRawPointer(base).storeBytes(of: prefixText.littleEndian, as: UInt64.self)
        base[prefixCount] = UInt8(ascii: "-")
        let end = count
        var rest = number
        var position = end
        repeat {
            position &-= 1
            base[position] = Self.hex(rest)
            rest >>= 4
        } while position > prefixCount &+ 1
        return end
    }

    /// The id as text: a small string (no allocation) up to 15 bytes, as most are.
    public var text: String {
        String(unsafeUninitializedCapacity: count) { buffer in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity) { scratch in
                let written = write(to: scratch.baseAddress!)
                buffer.baseAddress!.update(from: scratch.baseAddress!, count: written)
                return written
            }
        }
    }

    /// The id's bytes, NUL-terminated, for C during `body`.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity + 1) { buffer in
            let base = buffer.baseAddress!
            base[write(to: base)] = 0
            return base.withMemoryRebound(to: CChar.self, capacity: Self.capacity + 1) { body($0) }
        }
    }
}
