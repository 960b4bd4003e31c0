import Glibc

/// Whether every `%` in bytes that arrive in pieces is followed by two hexadecimal digits.
struct PercentEscapes: Sendable {
    /// The digits still owed by the last `%`.
    private var owed = 0
    private(set) var isMalformed = false

    /// Looks only where a `%` is (found with `memchr`): most bodies have none.
    mutating func check(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !isMalformed, let base = bytes.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            if owed > 0 {
                guard bytes[index].isHexDigit else { isMalformed = true; return }
                owed -= 1
                index += 1
                continue
            }
            guard let found = memchr(base + index, Int32(UInt8(ascii: "%")), bytes.count - index) else { return }
            index = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
            owed = 2
        }
    }

    /// The bytes ended: an escape still owing digits was cut short.
    var endsMalformed: Bool { isMalformed || owed > 0 }

    static let message = "The form data has a malformed %-escape: each % must be followed by two hexadecimal digits."
}

private extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
