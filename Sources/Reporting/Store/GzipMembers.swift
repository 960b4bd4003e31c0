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

    /// The members of an index file's rows (`count` pairs of little-endian u64 at `rows`); nil
    /// when one is past 4 GiB. In one pass: a visitor's query reads the index of every segment.
    init?(rows: UnsafeRawBufferPointer, count: Int) {
        guard rows.count >= count * 16 else { return nil }
        var fits = true
        func column(_ field: Int) -> [UInt32] {
            [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
                for number in 0..<count {
                    let value = rows.loadUnaligned(fromByteOffset: number * 16 + field, as: UInt64.self).littleEndian
                    fits = fits && value <= UInt64(UInt32.max)
                    out[number] = UInt32(truncatingIfNeeded: value)
                }
                initialized = count
            }
        }
        uncompressedStarts = column(0)
        compressedStarts = column(8)
        guard fits else { return nil }
    }

    /// `count` members of which only `entries` are known (the rest read as 0): for reading those
    /// members alone. Nil when one is past 4 GiB.
    init?(count: Int, entries: [Int], _ entry: (Int) -> (uncompressed: UInt64, compressed: UInt64)) {
        uncompressedStarts = [UInt32](repeating: 0, count: count)
        compressedStarts = [UInt32](repeating: 0, count: count)
        for number in entries {
            let (uncompressed, compressed) = entry(number)
            guard let u = UInt32(exactly: uncompressed), let c = UInt32(exactly: compressed) else { return nil }
            uncompressedStarts[number] = u
            compressedStarts[number] = c
        }
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
