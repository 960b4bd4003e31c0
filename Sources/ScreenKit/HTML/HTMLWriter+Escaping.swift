extension HTMLWriter {
    /// What to do with each byte value, one ASCII digit per byte (a static table needs no
    /// initialisation and no bounds checks): 0 copy, 1 `&amp;`, 2 `&lt;`, 3 `&gt;`, 4 `&quot;`,
    /// 5 `&#39;`, 6 U+FFFD (C0 controls but tab/LF/FF/CR, and DEL), 7 maybe a C1 control (0xC2).
    @usableFromInline
    static let escapeActions: StaticString = """
        6666666660060066666666666666666600400015000000000000000000002030\
        0000000000000000000000000000000000000000000000000000000000000006\
        0000000000000000000000000000000000000000000000000000000000000000\
        0070000000000000000000000000000000000000000000000000000000000000
        """

    /// Flags (high bit per byte) the bytes of a little-endian word that may need escaping,
    /// without branching per byte. The lowest flag is always exact; higher ones may be false
    /// positives, and tab and newline are flagged too (the table then copies them).
    @inline(__always)
    static func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte of `v` is zero iff the matching byte of `(v - ones) & ~v` has its high bit set
        // (as a whole-word test); likewise `(word - 0x20s) & ~word` flags bytes below 0x20.
        @inline(__always) func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v }
        let flags = zeroBytes((word & 0xFEFE_FEFE_FEFE_FEFE) ^ 0x2626_2626_2626_2626)  // & '
            | zeroBytes((word & 0xFDFD_FDFD_FDFD_FDFD) ^ 0x3C3C_3C3C_3C3C_3C3C)        // < >
            | zeroBytes(word ^ 0x2222_2222_2222_2222)                                 // "
            | zeroBytes(word ^ 0x7F7F_7F7F_7F7F_7F7F)                                 // DEL
            | zeroBytes(word ^ 0xC2C2_C2C2_C2C2_C2C2)                                 // C1 lead
            | ((word &- 0x2020_2020_2020_2020) & ~word)                               // C0
        return flags & highs
    }

    /// Replacement bytes for actions 1...6, one 8-byte slot each (slot 0 stays empty), so the
    /// scalar path picks them by index instead of by a branch that mispredicts on dense text.
    @usableFromInline
    static let replacements: StaticString =
        "\0\0\0\0\0\0\0\0&amp;\0\0\0&lt;\0\0\0\0&gt;\0\0\0\0&quot;\0\0&#39;\0\0\0\u{FFFD}\0\0\0\0\0"

    /// Output length per action, one nibble each: 1 for a copied byte, then 5, 4, 4, 6, 5, 3.
    @usableFromInline
    static let replacementLengths: UInt64 = 0x3_5_6_4_4_5_1

    /// Escapes `value` straight into the buffer in one pass.
    ///
    /// Room for the worst case (every byte becoming six) is made first, so the loop writes
    /// through one pointer: clean 8-byte words are copied whole, a word with anything to escape
    /// is walked byte by byte without branches, replacements being stored as one word.
    @usableFromInline
    mutating func appendEscaped(_ value: String, attribute name: UnsafeBufferPointer<UInt8>? = nil) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendEscaped(utf8: $0, attribute: name) }
        if done == nil {
            var copy = value
            copy.withUTF8 { appendEscaped(utf8: $0, attribute: name) }
        }
    }

    /// With `name`, writes ` name="…"` around the escaped text, all in one buffer access.
    private mutating func appendEscaped(utf8 source: UnsafeBufferPointer<UInt8>,
                                        attribute name: UnsafeBufferPointer<UInt8>?) {
        let end = source.count
        let nameLength = name?.count ?? 0
        // Six bytes out per byte in at most, plus a word of slack for the word-wide stores.
        let room = end &* 6 &+ 8 &+ nameLength &+ 4
        if count + room > storage.count { grow(toFit: room) }
        let offset = count
        let written = storage.withUnsafeMutableBufferPointer { target -> Int in
            let start = target.baseAddress.unsafelyUnwrapped + offset
            var output = start
            if let name, let nameStart = name.baseAddress {
                output[0] = UInt8(ascii: " ")
                (output + 1).update(from: nameStart, count: nameLength)
                output[nameLength &+ 1] = UInt8(ascii: "=")
                output[nameLength &+ 2] = UInt8(ascii: "\"")
                output += nameLength &+ 3
            }
            if let input = source.baseAddress {
                var index = 0
                while end &- index >= 8 {
                    let word = UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self)
                    if HTMLWriter.escapeFlags(UInt64(littleEndian: word)) == 0 {
                        UnsafeMutableRawPointer(output).storeBytes(of: word, as: UInt64.self)
                        output += 8
                        index &+= 8
                    } else {
                        let stop = index &+ 8
                        while index < stop { HTMLWriter.escapeByte(input, at: &index, end: end, to: &output) }
                    }
                }
                while index < end { HTMLWriter.escapeByte(input, at: &index, end: end, to: &output) }
            }
            if name != nil {
                output[0] = UInt8(ascii: "\"")
                output += 1
            }
            return output - start
        }
        count = offset &+ written
    }

    /// Writes the byte at `index` (or its replacement) at `output` and advances both.
    /// Branch-free but for the rare 0xC2 lead byte: slot 0 of the replacements is empty, so a
    /// byte that needs nothing is ORed in as itself, and `index` always advances by one, which
    /// keeps the loop from waiting on the table lookups of the previous byte.
    @inline(__always)
    static func escapeByte(_ input: UnsafePointer<UInt8>, at index: inout Int, end: Int,
                           to output: inout UnsafeMutablePointer<UInt8>) {
        let byte = input[index]
        let action = escapeActions.utf8Start[Int(byte)] &- UInt8(ascii: "0")
        if action == 7 {
            let step = escapeC2(input + index, remaining: end &- index, to: output)
            index &+= step.consumed
            output += step.produced
            return
        }
        let slot = UnsafeRawPointer(replacements.utf8Start)
            .loadUnaligned(fromByteOffset: Int(action) &* 8, as: UInt64.self)
        let bytes = slot | (action == 0 ? UInt64(littleEndian: UInt64(byte)) : 0)
        UnsafeMutableRawPointer(output).storeBytes(of: bytes, as: UInt64.self)
        output += Int(truncatingIfNeeded: (replacementLengths &>> (UInt64(action) &* 4)) & 0xF)
        index &+= 1
    }

    /// U+0080...U+009F (encoded C2 80...C2 9F) become U+FFFD; other C2 sequences are copied.
    /// Out of line, and by value rather than `inout`, so the common path keeps its cursors in
    /// registers.
    @inline(never)
    static func escapeC2(_ input: UnsafePointer<UInt8>, remaining: Int,
                         to output: UnsafeMutablePointer<UInt8>) -> (consumed: Int, produced: Int) {
        guard remaining > 1, (0x80...0x9F).contains(input[1]) else {
            output[0] = 0xC2
            return (1, 1)
        }
        output[0] = 0xEF
        output[1] = 0xBF
        output[2] = 0xBD
        return (2, 3)
    }
}
