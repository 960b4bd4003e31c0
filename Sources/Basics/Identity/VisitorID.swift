/// A visitor's id: 128 random bits, spelled as 32 lowercase hex digits in the visitor cookie,
/// the report log's lines and every page that shows one. Carried as two words on the hot path:
/// parsing the cookie's bytes and writing the digits out again allocate nothing, where a `String`
/// cost an allocation per request and its release on the report writer's thread.
/// Whatever is keyed or hashed by a visitor (experiment groups, rollouts, visitor sketches and
/// filters, viewing keys) is computed over the digits, exactly as over the `String` before.
public struct VisitorID: Sendable, Hashable, CustomStringConvertible {
    /// The first 16 digits' value, then the last 16's.
    public let high: UInt64
    public let low: UInt64

    /// The length of the id's spelling.
    public static let digitCount = 32

    @inlinable
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A new id from the system's secure random source (getrandom(2) on Linux).
    public static func random() -> VisitorID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        return VisitorID(high: high, low: generator.next())
    }

    /// The id `text` spells: exactly 32 lowercase hex digits, else nil.
    @inlinable
    public init?(_ text: some StringProtocol) {
        // Read in place (a copy for `withUTF8` costs a retain and a release).
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ VisitorID(utf8: $0) }) {
            guard let parsed else { return nil }
            self = parsed
        } else {
            var copy = String(text)
            guard let parsed = copy.withUTF8({ VisitorID(utf8: $0) }) else { return nil }
            self = parsed
        }
    }

    /// The id `bytes` spell: exactly 32 lowercase hex digits, else nil.
    @inlinable
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == Self.digitCount, let base = bytes.baseAddress else { return nil }
        // Wrapping subtraction turns each range test into one unsigned comparison; the digits'
        // values are gathered in the same pass, and a bad byte checked once at the end.
        var bad: UInt8 = 0
        var words: (UInt64, UInt64) = (0, 0)
        for half in 0..<2 {
            var word: UInt64 = 0
            for index in half * 16..<half * 16 + 16 {
                let byte = base[index]
                let decimal = byte &- 0x30, letter = byte &- 0x61
                bad |= (decimal > 9 ? 1 : 0) & (letter > 5 ? 1 : 0)
                word = word << 4 | UInt64(decimal > 9 ? letter &+ 10 : decimal)
            }
            if half == 0 { words.0 = word } else { words.1 = word }
        }
        guard bad == 0 else { return nil }
        high = words.0
        low = words.1
    }

    /// Whether `text` spells an id: exactly 32 lowercase hex digits.
    @inlinable
    public static func isWellFormed(_ text: some StringProtocol) -> Bool { VisitorID(text) != nil }

    /// The 32 digits, as the cookie and the report log spell them.
    public var text: String {
        String(unsafeUninitializedCapacity: Self.digitCount) { buffer in
            withDigits { buffer.baseAddress!.initialize(from: $0.baseAddress!, count: Self.digitCount) }
            return Self.digitCount
        }
    }

    public var description: String { text }

    /// Calls `body` with the 32 digits, on the stack.
    @inlinable
    public func withDigits<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var digits = self.digits
        return try withUnsafeBytes(of: &digits) { try body($0.bindMemory(to: UInt8.self)) }
    }

    /// The 32 digits as four words, in memory order (the first digit in the first word's lowest byte).
    @inlinable
    public var digits: (UInt64, UInt64, UInt64, UInt64) {
        (Self.digits(UInt32(truncatingIfNeeded: high >> 32)), Self.digits(UInt32(truncatingIfNeeded: high)),
         Self.digits(UInt32(truncatingIfNeeded: low >> 32)), Self.digits(UInt32(truncatingIfNeeded: low)))
    }

    /// The eight digits of `value`, most significant first in memory; all in one word, without a
    /// branch or a table.
    @inlinable @inline(__always)
    static func digits(_ value: UInt32) -> UInt64 {
        // Spread the nibbles one a byte (nibble n in byte n), then add '0', and 'a' - '0' - 10
        // more to each byte of 10 or over.
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = spread &+ 0x3030_3030_3030_3030 &+ letters &* 39
        // The most significant nibble is in the highest byte: swapped, it comes first in memory.
        return UInt64(littleEndian: ascii.byteSwapped)
    }
}

extension StableHash {
    /// 64-bit FNV-1a of the id's digits, continuing from `hash`: the same as over its `text`.
    @inlinable
    public static func fnv1a(_ visitor: VisitorID, from hash: UInt64 = fnvOffset) -> UInt64 {
        visitor.withDigits { fnv1a(UnsafeRawBufferPointer($0), from: hash) }
    }

    /// The mixed hash of the id's digits: the same as `hash(visitor.text)`.
    @inlinable
    public static func hash(_ visitor: VisitorID) -> UInt64 { mix(fnv1a(visitor)) }
}
