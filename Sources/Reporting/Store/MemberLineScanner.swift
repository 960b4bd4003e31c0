#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads chosen gzip members of a compressed segment, newest member first and newest line first
/// in each: the members a visitor's filter admits, the others never inflated. Of each member only
/// the lines holding `needle` are handed out: found in the whole member, not line by line.
struct MemberLineScanner: LineSource {
    let index: GzipIndex
    /// Nil when there are no members to read: the file is not opened.
    private let reader: MemberReader?
    private let needle: [UInt8]
    /// Lines at or past this offset are not read (written after the caller looked).
    let end: Int64
    /// Members still to read, newest first.
    private var members: ArraySlice<Int>
    /// The member being read, in file order; taken from the back.
    private var lines: [ScannedLine] = []

    /// `members` in ascending order, as `MemberFilter.candidates` gives them; `needle` at least two bytes.
    init(index: GzipIndex, path: String, members: [Int], needle: [UInt8], end: Int64) throws {
        self.index = index
        reader = members.isEmpty ? nil : try MemberReader(index: index, path: path)
        self.needle = needle
        self.end = end
        self.members = members.reversed()[...]
    }

    mutating func next() throws -> ScannedLine? {
        while true {
            if let line = lines.popLast() { return line }
            guard let member = members.popFirst(), let reader else { return nil }
            let start = index.members[member].uncompressed
            guard start < end else { continue }
            let bytes = try reader.read(member)
            let limit = Int(min(Int64(bytes.count), end - start))
            bytes.withUnsafeBytes { all in
                let member = UnsafeRawBufferPointer(rebasing: all[..<limit])
                var from = 0
                needle.withUnsafeBytes { needle in
                    while let at = LineNeedles.find(needle, in: member, from: from) {
                        var lineStart = at
                        while lineStart > 0 && member[lineStart - 1] != 10 { lineStart -= 1 }
                        let lineEnd = memchr(member.baseAddress! + at, 10, limit - at)
                            .map { member.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? limit
                        let long = lineEnd - lineStart > maxLineBytes
                        lines.append(ScannedLine(offset: start + Int64(lineStart), bytes: long ? nil : bytes[lineStart..<lineEnd]))
                        from = lineEnd + 1
                    }
                }
            }
        }
    }
}
