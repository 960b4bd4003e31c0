import Testing
@testable import MicroHTTP

/// The buffer the server sends a spliced body from equals the body's bytes, whatever the holes.
@Suite struct SplicedBodyTests {
    static let cases: [(holes: [Range<Int>], filling: String, expected: String)] = [
        ([], "tok", "0123456789"),
        ([0..<2], "tok", "tok23456789"),
        ([8..<10], "tok", "01234567tok"),
        ([2..<4, 4..<6], "ab", "01abab6789"),
        ([0..<10], "", ""),
        ([3..<3], "X", "012X3456789"),
        ([1..<2, 5..<9], "", "02349"),
    ]

    @Test(arguments: cases.indices)
    func writesThePiecesInOrder(index: Int) {
        let (holes, filling, expected) = Self.cases[index]
        let body = SplicedBody(base: Array("0123456789".utf8), holes: holes, filling: Array(filling.utf8))
        #expect(body.count == expected.utf8.count)
        #expect(String(decoding: body.bytes, as: UTF8.self) == expected)
        var buffer = [UInt8](repeating: 0, count: body.count)
        buffer.withUnsafeMutableBytes { body.write(into: $0) }
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
    }
}
