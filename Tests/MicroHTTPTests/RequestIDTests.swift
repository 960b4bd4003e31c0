import Basics
import Testing
@testable import MicroHTTP

@Suite struct RequestIDTests {
    @Test func idsAreOnePrefixAndAHexCounter() throws {
        let generator = RequestIDGenerator()
        let ids = (1...300).map { _ in generator.next().text }
        let prefix = try #require(ids[0].split(separator: "-").first)
        #expect(ids.allSatisfy { $0.hasPrefix(prefix + "-") })
        #expect(ids.map { $0.split(separator: "-")[1] }.prefix(17).last == "11")
        #expect(ids[255].hasSuffix("-100"))
        #expect(Set(ids).count == ids.count)
    }

    @Test func anIdsBytesAreItsText() {
        let ids = [RequestID(prefix: 0, number: 0), RequestID(prefix: 0x5f3a_9c1e, number: 0x1a),
                   RequestID(prefix: .max, number: .max)]
        #expect(ids.map(\.text) == ["0-0", "5f3a9c1e-1a", "ffffffff-ffffffffffffffff"])
        #expect(ids.map(\.count) == [3, 11, RequestID.capacity])
        #expect(ids.map { $0.withCString { String(cString: $0) } } == ids.map(\.text))
    }
}
