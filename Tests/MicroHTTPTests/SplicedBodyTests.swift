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
        let body = SplicedBody(base: Array("0123456789".utf8), holes: holes, filling: SplicedFilling(filling.utf8))
        #expect(body.count == expected.utf8.count)
        #expect(String(decoding: body.bytes, as: UTF8.self) == expected)
        var buffer = [UInt8](repeating: 0, count: body.count)
        buffer.withUnsafeMutableBytes { body.write(into: $0) }
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
    }

    @Test func aReusedCopyHoldsOnlyTheNewFilling() throws {
        let spliced = SplicedBytes(base: Array("a[..]b[..]c".utf8), holes: [1..<5, 6..<10])
        func text(_ copy: SplicedCopy) -> String {
            String(decoding: UnsafeRawBufferPointer(start: copy.bytes, count: copy.count), as: UTF8.self)
        }
        let first = try #require(spliced.lease(filling: SplicedFilling("1111".utf8)))
        #expect(text(first) == "a1111b1111c")
        first.giveBack()
        let second = try #require(spliced.lease(filling: SplicedFilling("2222".utf8)))
        #expect(second === first)
        #expect(text(second) == "a2222b2222c")
        let third = try #require(spliced.lease(filling: SplicedFilling("3333".utf8)))  // the second is still out
        #expect(third !== second && text(third) == "a3333b3333c")
        second.giveBack()
        third.giveBack()
        #expect(spliced.lease(filling: SplicedFilling("toolong".utf8)) == nil)  // written out whole instead
    }

    /// A copy with an insert keeps the bytes around the slot: the next response with an insert of
    /// the same length gets it back with only its own insert and token written; another length
    /// gets a copy of its own. Kept up to `keptInsertedCopies`, the oldest dropped first.
    @Test func aCopyWithAnInsertIsReusedForAnInsertAsLong() throws {
        let spliced = SplicedBytes(base: Array("a[..]b|c[..]d".utf8), holes: [1..<5, 8..<12], slot: 6)
        func lease(_ token: String, _ insert: String) throws -> SplicedCopy {
            let body = SplicedBody(spliced: spliced, filling: SplicedFilling(token.utf8), insert: Array(insert.utf8))
            let copy = try #require(body.leaseInserting(.identity))
            #expect(Array(UnsafeRawBufferPointer(start: copy.bytes, count: copy.count)) == body.bytes)
            return copy
        }
        let first = try lease("1111", "xyz")
        first.giveBack()
        #expect(spliced.insertedIdleCount == 1 && spliced.idleCount == 0)
        let second = try lease("2222", "XYZ")
        #expect(second === first)
        let longer = try lease("3333", "wxyz")
        #expect(longer !== second)
        second.giveBack()
        longer.giveBack()
        #expect(try lease("4444", "uvwx") === longer)
        let many = try (0..<SplicedBytes.keptInsertedCopies + 3).map { try lease("5555", String(repeating: "m", count: $0 + 1)) }
        for copy in many { copy.giveBack() }
        #expect(spliced.insertedIdleCount == SplicedBytes.keptInsertedCopies)
        // The three given back first went; the last given back is found first.
        #expect(try lease("6666", "m") !== many[0])
        #expect(try lease("6666", String(repeating: "m", count: many.count)) === many.last)
    }

    /// Copies given back are kept up to `keptCopies` (one of them outside the lock),
    /// each lent again before a new one is made; the rest are freed, and the kept ones go with
    /// their template.
    @Test func copiesGivenBackAreKeptUpToTheLimitAndGoWithTheirTemplate() throws {
        var weakCopies: [Weak] = []
        weak var weakTemplate: SplicedBytes?
        try {
            let spliced = SplicedBytes(base: Array("a[..]b".utf8), holes: [1..<5])
            weakTemplate = spliced
            let count = SplicedBytes.keptCopies + 4
            let copies = try (0..<count).map { _ in try #require(spliced.lease(filling: SplicedFilling("1111".utf8))) }
            weakCopies = copies.map { Weak($0) }
            for copy in copies { copy.giveBack() }
            #expect(spliced.idleCount == SplicedBytes.keptCopies)
            // The one kept outside the lock (the first back, the place then empty) comes out first,
            // then the listed ones; none is made anew.
            let again = try (0..<SplicedBytes.keptCopies).map { _ in try #require(spliced.lease(filling: SplicedFilling("2222".utf8))) }
            #expect(again.first === copies[0])
            #expect(Set(again.map(ObjectIdentifier.init)).isSubset(of: Set(copies.map(ObjectIdentifier.init))))
            #expect(spliced.idleCount == 0)
            for copy in again { copy.giveBack() }
        }()
        #expect(weakTemplate == nil)
        #expect(weakCopies.allSatisfy { $0.object == nil })
    }

    private final class Weak {
        weak var object: SplicedCopy?
        init(_ object: SplicedCopy) { self.object = object }
    }

    /// A lent copy keeps its template alive; once every copy is back, the template and its copies go.
    @Test func aLentCopyKeepsItsSource() throws {
        weak var weakTemplate: SplicedBytes?
        let copy: SplicedCopy = try {
            let spliced = SplicedBytes(base: Array("a[..]b".utf8), holes: [1..<5])
            weakTemplate = spliced
            return try #require(spliced.lease(filling: SplicedFilling("1111".utf8)))
        }()
        #expect(weakTemplate != nil)
        copy.giveBack()
        #expect(weakTemplate == nil)
    }
}
