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
        let raw = UnsafeRawPointer(base)
        guard let first = Self.value(raw.loadUnaligned(as: UInt64.self)),
              let second = Self.value(raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
              let third = Self.value(raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
              let fourth = Self.value(raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)) else { return nil }
        high = first << 32 | second
        low = third << 32 | fourth
    }

    /// The value of eight digits as loaded from memory (the first in the lowest byte), or nil
    /// unless each is 0-9 or a-f. Eight bytes a step, without a branch per byte: a byte loop cost
    /// some 600 instructions an id.
    @inlinable @inline(__always)
    static func value(_ loaded: UInt64) -> UInt64? {
        let bytes = UInt64(littleEndian: loaded)
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        // For bytes under 0x80, `byte + (0x80 - c)` sets the byte's high bit exactly when byte >= c,
        // and never carries into the next byte.
        func atLeast(_ c: UInt64) -> UInt64 { (bytes &+ (0x80 - c) &* ones) & highBits }
        let digit = atLeast(0x30) & ~atLeast(0x3A)
        let letter = atLeast(0x61) & ~atLeast(0x67)
        guard bytes & highBits == 0, digit | letter == highBits else { return nil }
        // '0'-'9' keep their low nibble; 'a'-'f' (low nibble 1-6) gain 9.
        var nibbles = (bytes & 0x0F0F_0F0F_0F0F_0F0F) &+ (letter >> 7) &* 9
        // The first digit is the most significant: swapped, it is in the highest byte; then the
        // nibbles are packed pairwise into bytes, bytes into halves, halves into the word.
        nibbles = nibbles.byteSwapped
        nibbles = (nibbles | nibbles >> 4) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles >> 8) & 0x0000_FFFF_0000_FFFF
        return (nibbles | nibbles >> 16) & 0xFFFF_FFFF
    }

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
        @inline(__always) get {
            (Self.digits(UInt32(truncatingIfNeeded: high >> 32)), Self.digits(UInt32(truncatingIfNeeded: high)),
             Self.digits(UInt32(truncatingIfNeeded: low >> 32)), Self.digits(UInt32(truncatingIfNeeded: low)))
        }
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
