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
    /// through one pointer: clean 8-byte words are copied whole, other bytes one at a time,
    /// and replacements are stored as one word. Besides the five specials, code points HTML
    /// forbids in a document (C0 controls but whitespace, DEL, C1 controls) become U+FFFD.
    @usableFromInline
    mutating func appendEscaped(_ value: String) {
        var value = value
        value.withUTF8 { source in
            guard let input = source.baseAddress else { return }
            let end = source.count
            // Six bytes out per byte in at most, plus a word of slack for the word-wide stores.
            let room = end * 6 + 8
            if count + room > storage.count { grow(toFit: room) }
            let offset = count
            let actions = HTMLWriter.escapeActions.utf8Start
            let replacements = HTMLWriter.replacements.utf8Start
            let written = storage.withUnsafeMutableBufferPointer { target -> Int in
                let start = target.baseAddress.unsafelyUnwrapped + offset
                var output = start
                var index = 0
                while index < end {
                    if end - index >= 8 {
                        // Copy the whole word, then keep only the bytes before the first flag.
                        let word = UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self)
                        UnsafeMutableRawPointer(output).storeBytes(of: word, as: UInt64.self)
                        let flags = HTMLWriter.escapeFlags(UInt64(littleEndian: word))
                        if flags == 0 {
                            output += 8
                            index += 8
                            continue
                        }
                        let safe = flags.trailingZeroBitCount &>> 3
                        output += safe
                        index += safe
                    }
                    let byte = input[index]
                    var action = actions[Int(byte)] &- UInt8(ascii: "0")
                    var width = 1
                    if action == 7 {
                        // U+0080...U+009F are encoded C2 80...C2 9F; other C2 sequences are fine.
                        let isC1 = index + 1 < end && (0x80...0x9F).contains(input[index + 1])
                        action = isC1 ? 6 : 0
                        width = isC1 ? 2 : 1
                    }
                    // Branch-free: slot 0 is empty, so a safe byte ORs in as itself.
                    let slot = UnsafeRawPointer(replacements).loadUnaligned(fromByteOffset: Int(action) &* 8, as: UInt64.self)
                    let bytes = slot | (action == 0 ? UInt64(littleEndian: UInt64(byte)) : 0)
                    UnsafeMutableRawPointer(output).storeBytes(of: bytes, as: UInt64.self)
                    output += Int(truncatingIfNeeded: (HTMLWriter.replacementLengths >> (UInt64(action) &* 4)) & 0xF)
                    index += width
                }
                return output - start
            }
            count = offset + written
        }
    }
}
