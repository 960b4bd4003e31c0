/// Reads chosen gzip members of a compressed segment, newest member first and newest line first
/// in each: the members a visitor's filter admits, the others never inflated.
struct MemberLineScanner: LineSource {
    let index: GzipIndex
    private let reader: MemberReader
    /// Lines at or past this offset are not read (written after the caller looked).
    let end: Int64
    /// Members still to read, newest first.
    private var members: ArraySlice<Int>
    /// The member being read, in file order; taken from the back.
    private var lines: [ScannedLine] = []

    /// `members` in ascending order, as `MemberFilter.candidates` gives them.
    init(index: GzipIndex, path: String, members: [Int], end: Int64) throws {
        self.index = index
        reader = try MemberReader(index: index, path: path)
        self.end = end
        self.members = members.reversed()[...]
    }

    mutating func next() throws -> ScannedLine? {
        while true {
            if let line = lines.popLast() { return line }
            guard let member = members.popFirst() else { return nil }
            let start = index.members[member].uncompressed
            guard start < end else { continue }
            let bytes = try reader.read(member)
            let limit = Int(min(Int64(bytes.count), end - start))
            var offset = 0
            while offset < limit {
                let newline = bytes[offset..<limit].firstIndex(of: 10) ?? limit
                if newline > offset {
                    let long = newline - offset > maxLineBytes
                    lines.append(ScannedLine(offset: start + Int64(offset), bytes: long ? nil : bytes[offset..<newline]))
                }
                offset = newline + 1
            }
        }
    }
}
