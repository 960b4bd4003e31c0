import Synchronization

/// Request ids unique within a process and unlikely to repeat across restarts:
/// a random per-process prefix and a counter, e.g. `5f3a9c1e-1a`.
final class RequestIDGenerator: Sendable {
    /// The prefix and its `-`, as the bytes every id starts with.
    private let prefix = Array((String(UInt32.random(in: .min ... .max), radix: 16) + "-").utf8)
    private let counter = Atomic<UInt64>(0)

    /// Written straight into the string's storage: ids are made on every request.
    func next() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        let digits = (64 - number.leadingZeroBitCount + 3) / 4
        return String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
            _ = buffer.initialize(from: prefix)
            var rest = number
            for position in (prefix.count ..< prefix.count + digits).reversed() {
                buffer[position] = Self.hexDigits[Int(rest & 0xF)]
                rest >>= 4
            }
            return prefix.count + digits
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
