/// Member starts, uncompressed and compressed, held as 32-bit offsets: 8 bytes a member in
/// memory, for every compressed segment of the log at once. A segment is far below 4 GiB; one that
/// is not gets no index and is read from its start.
struct GzipMembers: RandomAccessCollection, Sendable {
    private var uncompressedStarts: [UInt32] = []
    private var compressedStarts: [UInt32] = []

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { uncompressedStarts.count }

    subscript(position: Int) -> (uncompressed: Int64, compressed: Int64) {
        (Int64(uncompressedStarts[position]), Int64(compressedStarts[position]))
    }

    mutating func reserveCapacity(_ count: Int) {
        uncompressedStarts.reserveCapacity(count)
        compressedStarts.reserveCapacity(count)
    }

    /// False (nothing added) past 4 GiB.
    @discardableResult
    mutating func append(_ member: (uncompressed: Int64, compressed: Int64)) -> Bool {
        guard let uncompressed = UInt32(exactly: member.uncompressed), let compressed = UInt32(exactly: member.compressed) else {
            return false
        }
        uncompressedStarts.append(uncompressed)
        compressedStarts.append(compressed)
        return true
    }
}
