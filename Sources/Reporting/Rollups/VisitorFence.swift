import Basics

/// What a lookup needs of a segment's visitor index besides the rows it reads: the file's shape and
/// the key of every `step`th row, taken while the whole file is in memory anyway (checked at open,
/// or just written). A lookup then searches the fence in memory and reads the one block of rows it
/// leads to, where the binary search over the file read a window per probe, a dozen reads a
/// segment. 8 bytes per 128 rows: under 1 MiB at 100 million events.
final class VisitorFence: Sendable {
    static let step = 128
    /// The bytes a lookup reads at once: the block of rows the fence leads to, with room to spare.
    static let window = 4096
    /// The version of the file described: any other (rewritten since) is read with every check.
    let file: FileStamp
    let width: Int
    let memberCount: Int
    let rowCount: Int
    let listCount: Int
    let bytes: Int64
    /// The keys of rows 0, step, 2 step, and so on.
    private let keys: [UInt64]

    /// The fence of a checked index (`contents.problem` nil) read from `file`.
    init<Bytes: IndexBytes>(_ contents: VisitorIndex.Contents<Bytes>, file: FileStamp) {
        self.file = file
        width = contents.width
        memberCount = contents.memberCount
        rowCount = contents.rowCount
        listCount = contents.listCount
        bytes = Int64(bitPattern: contents.u64(16))
        keys = stride(from: 0, to: rowCount, by: Self.step).map { contents.key($0) }
    }

    /// The rows to search for the first row at or after `key` with any hash: every row before
    /// `lowerBound` is keyed below it, and the row at `upperBound` (if any) above.
    func rows(around key: UInt64) -> Range<Int> {
        let below = partition { $0 >= key }  // fence keys below `key`
        let atOrBelow = partition { $0 > key }
        return (below == 0 ? 0 : (below - 1) * Self.step)..<min(rowCount, atOrBelow * Self.step)
    }

    /// The number of leading fence keys for which `isPast` is false (it must be monotonic).
    private func partition(_ isPast: (UInt64) -> Bool) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if isPast(keys[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
