import CMicroHTTPD
import Testing

/// The head's C pass reads a value's bytes a word at a time (the last word overlapping the one
/// before it) and copies names and values the same way: at every length and every position, a
/// control byte is still found, a high byte still noted, and every byte copied as it was.
@Suite struct HeadCheckWordTests {
    private static func hasControl(_ bytes: [UInt8]) -> (control: Bool, high: Bool) {
        var high: UInt64 = 0
        let control = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dh_value_has_control($0.baseAddress, $0.count, &high) }
        }
        return (control != 0, high != 0)
    }

    @Test func aControlByteIsFoundWhereverItLiesInAValueOfAnyLength() {
        for length in 1...40 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(Self.hasControl(plain) == (false, false))
            for position in 0..<length {
                for bad: UInt8 in [0x00, 0x01, 0x0A, 0x0D, 0x1F, 0x7F] {
                    var value = plain
                    value[position] = bad
                    #expect(Self.hasControl(value).control, "length \(length), \(bad) at \(position)")
                }
                var tab = plain
                tab[position] = 0x09
                #expect(Self.hasControl(tab) == (false, false), "length \(length), tab at \(position)")
                var high = plain
                high[position] = 0xC3
                #expect(Self.hasControl(high) == (false, true), "length \(length), high byte at \(position)")
            }
        }
    }

    private static func isToken(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { dh_is_token($0.baseAddress, $0.count) != 0 } }
    }

    @Test func aNameIsATokenExactlyWhenEachOfItsBytesIsAtAnyLengthAndPosition() {
        let plain = Array("Accept-Encoding-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for length in 1...40 {
            let name = Array(plain[(length % 7)..<(length % 7 + length)])
            #expect(Self.isToken(name), "length \(length)")
            for position in 0..<length {
                for bad in Array(" \t:\"(),/;<=>?@[\\]{}".utf8) + [0x00, 0x0D, 0x7F, 0x80, 0xC3, 0xFF] {
                    var changed = name
                    changed[position] = bad
                    #expect(!Self.isToken(changed), "length \(length), \(bad) at \(position)")
                }
                for other in Array("!#$%&'*+.^_`|~".utf8) {
                    var changed = name
                    changed[position] = other
                    #expect(Self.isToken(changed), "length \(length), \(other) at \(position)")
                }
            }
        }
    }

    @Test func aHeaderIsCopiedByteForByteAtAnyLength() {
        for length in 0...80 {
            let name = Array("X-Name".utf8)
            let value = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            var out = [UInt8](repeating: 0xEE, count: 4 + name.count + length + 8)
            let used = out.withUnsafeMutableBufferPointer { buffer in
                var copy = dh_header_copy_into(buffer.baseAddress, buffer.count)
                name.withUnsafeBufferPointer { name in
                    value.withUnsafeBufferPointer { value in
                        name.withMemoryRebound(to: CChar.self) { name in
                            value.withMemoryRebound(to: CChar.self) { value in
                                _ = dh_header_copy_one(&copy, name.baseAddress, name.count,
                                                       value.baseAddress ?? name.baseAddress, value.count)
                            }
                        }
                    }
                }
                return copy.used
            }
            #expect(used == 4 + name.count + length)
            #expect(Array(out[4..<4 + name.count]) == name)
            #expect(Array(out[4 + name.count..<used]) == value, "length \(length)")
            #expect(out[used...].allSatisfy { $0 == 0xEE }, "nothing written past the copy at length \(length)")
        }
    }
}
