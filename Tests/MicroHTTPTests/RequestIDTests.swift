import Testing
@testable import MicroHTTP

@Suite struct RequestIDTests {
    @Test func idsAreOnePrefixAndAHexCounter() throws {
        let generator = RequestIDGenerator()
        let ids = (1...300).map { _ in generator.next() }
        let prefix = try #require(ids[0].split(separator: "-").first)
        #expect(ids.allSatisfy { $0.hasPrefix(prefix + "-") })
        #expect(ids.map { $0.split(separator: "-")[1] }.prefix(17).last == "11")
        #expect(ids[255].hasSuffix("-100"))
        #expect(Set(ids).count == ids.count)
    }
}
