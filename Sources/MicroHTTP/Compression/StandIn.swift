/// Stand-ins for a page's tokens while its fixed parts are compressed. They hold only bytes the
/// fixed parts never contain, and no two bytes in a row appear twice among them, so a
/// compressor can match nothing that starts in, ends in or crosses a token: every
/// back-reference it writes stays valid whatever token a response later splices in.
enum StandIn {
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

    /// A stand-in for the bytes a response inserts at the slot, `count` long (several kilobytes,
    /// too long for every pair of bytes to be new): bytes neither the page nor `tokens` hold, no
    /// three in a row twice and no two in a row twice within 64 bytes, so a compressor finds no
    /// match in it (brotli's shortest are 2 bytes near, 4 far) and writes it as literals, leaving
    /// its last distances as they were. Nil when the page leaves too few byte values free.
    static func slotRun(count: Int, for page: UnsafeRawBufferPointer, holes: [Range<Int>],
                        tokens: [[UInt8]]) -> [UInt8]? {
        var present = [Bool](repeating: false, count: 256)
        var start = 0
        for hole in holes + [page.count..<page.count] {
            for byte in page[start..<hole.lowerBound] { present[Int(byte)] = true }
            start = hole.upperBound
        }
        for token in tokens { for byte in token { present[Int(byte)] = true } }
        let symbols = (0...255).filter { !present[$0] }
        guard symbols.count >= 8, symbols.count * symbols.count * symbols.count >= 2 * count else { return nil }
        var triples = Set<Int>(minimumCapacity: count)
        var pairSeen = [Int](repeating: Int.min / 2, count: 256 * 256)
        var run: [UInt8] = []
        run.reserveCapacity(count)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<count {
            // A pseudo-random first choice spreads the triples, so the run rarely runs out of them.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let first = Int(state >> 33) % symbols.count
            var chosen: Int?
            for offset in 0..<symbols.count {
                let symbol = symbols[(first + offset) % symbols.count]
                if let previous = run.last {
                    if index - pairSeen[Int(previous) << 8 | symbol] <= 64 { continue }
                    if run.count >= 2, triples.contains(Int(run[run.count - 2]) << 16 | Int(previous) << 8 | symbol) { continue }
                }
                chosen = symbol
                break
            }
            guard let symbol = chosen else { return nil }
            if let previous = run.last {
                pairSeen[Int(previous) << 8 | symbol] = index
                if run.count >= 2 { triples.insert(Int(run[run.count - 2]) << 16 | Int(previous) << 8 | symbol) }
            }
            run.append(UInt8(symbol))
        }
        return run
    }
}
