/// The writer's last second as text (`YYYY-MM-DDTHH:MM:SS.`): its lines mostly fall in the second
/// of the line before, so only the milliseconds are formatted again (the whole timestamp, with
/// the civil date worked out from the days, was about 290 instructions a line).
struct TimestampCache {
    private var second = Int64.min
    private var prefix: (UInt64, UInt64, UInt32) = (0, 0, 0)

    /// Writes the 24 bytes of the timestamp for `ms` (already clamped) at `out`, as
    /// `ReportTimestamp.write` does; returns 24.
    @inline(__always)
    mutating func write(_ ms: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let second = ReportTimestamp.floorDiv(ms, 1000)
        guard second == self.second else {
            self.second = second
            let count = ReportTimestamp.write(ms, to: out)
            withUnsafeMutableBytes(of: &prefix) { $0.copyMemory(from: UnsafeRawBufferPointer(start: out, count: 20)) }
            return count
        }
        withUnsafeBytes(of: &prefix) { UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: 20) }
        let milliseconds = UInt32(truncatingIfNeeded: ms - second * 1000)
        out[20] = UInt8(truncatingIfNeeded: 48 + milliseconds / 100)
        out[21] = UInt8(truncatingIfNeeded: 48 + milliseconds / 10 % 10)
        out[22] = UInt8(truncatingIfNeeded: 48 + milliseconds % 10)
        out[23] = UInt8(ascii: "Z")
        return 24
    }
}
