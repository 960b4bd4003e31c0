/// Stand-ins for a page's tokens while its fixed parts are compressed. They hold only bytes the
/// fixed parts never contain, and no two bytes in a row appear twice among them, so a
/// compressor can match nothing that starts in, ends in or crosses a token: every
/// back-reference it writes stays valid whatever token a response later splices in.
enum Placeholder {
    /// One stand-in per hole (the holes' own lengths); nil when the page uses almost every byte value.
    static func fillings(for page: UnsafeRawBufferPointer, holes: [Range<Int>]) -> [[UInt8]]? {
        var present = [Bool](repeating: false, count: 256)
        var start = 0
        for hole in holes + [page.count..<page.count] {
            for byte in page[start..<hole.lowerBound] { present[Int(byte)] = true }
            start = hole.upperBound
        }
        // Highest first: 0xFF, 0xFE, … never occur in UTF-8 text.
        let symbols = (0...255).reversed().filter { !present[$0] }.map(UInt8.init)
        guard symbols.count >= 2 else { return nil }
        var used = [Bool](repeating: false, count: 256 * 256)
        var previous: UInt8? = nil
        var result: [[UInt8]] = []
        for hole in holes {
            var filling: [UInt8] = []
            for _ in 0..<hole.count {
                guard let next = symbols.first(where: { previous == nil || !used[Int(previous!) << 8 | Int($0)] }) else {
                    return nil
                }
                if let previous { used[Int(previous) << 8 | Int(next)] = true }
                filling.append(next)
                previous = next
            }
            result.append(filling)
        }
        return result
    }

    /// `page` with `fillings` in its holes.
    static func filled(_ page: UnsafeRawBufferPointer, holes: [Range<Int>], with fillings: [[UInt8]]) -> [UInt8] {
        var bytes = Array(page)
        for (hole, filling) in zip(holes, fillings) { bytes.replaceSubrange(hole, with: filling) }
        return bytes
    }
}
