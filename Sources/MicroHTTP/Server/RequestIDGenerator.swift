import Synchronization

/// Request ids unique within a process and unlikely to repeat across restarts:
/// a random per-process prefix and a counter, e.g. `5f3a9c1e-1a`.
final class RequestIDGenerator: Sendable {
    /// The prefix and its `-`, as the bytes every id starts with.
    private let prefix = Array((String(UInt32.random(in: .min ... .max), radix: 16) + "-").utf8)
    private let counter = Atomic<UInt64>(0)

    /// Written straight into the string's storage: ids are made on every request. Through
    /// pointers: a generic `initialize(from:)` and checked subscripts cost twice as much.
    func next() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        let digits = (64 - number.leadingZeroBitCount + 3) / 4
        return prefix.withUnsafeBufferPointer { prefix in
            let count = prefix.count + digits
            return String(unsafeUninitializedCapacity: count) { buffer in
                let base = buffer.baseAddress!
                base.initialize(from: prefix.baseAddress!, count: prefix.count)
                var rest = number
                for position in stride(from: count - 1, through: prefix.count, by: -1) {
                    let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                    base[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
                    rest >>= 4
                }
                return count
            }
        }
    }
}
