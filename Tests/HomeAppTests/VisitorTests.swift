import MicroHTTP
import Testing
@testable import HomeApp

/// The visitor cookie names a visitor only when it holds an id this site could have issued.
@Suite struct VisitorTests {
    static func visitor(cookie: String) -> Visitor {
        Visitor(request: Request(method: .get, target: "/", pathSegments: [], cookies: Cookies(header: cookie)))
    }

    @Test(arguments: ["0123456789abcdef0123456789abcdef", "ffffffffffffffffffffffffffffffff"])
    func aWellFormedIdIsKept(id: String) {
        let visitor = Self.visitor(cookie: "layout=grid; visitor=\(id)")
        #expect(visitor.id == id && !visitor.isNew)
    }

    @Test(arguments: ["0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcde",
                      "0123456789abcdef0123456789abcdef0", "0123456789abcdeg0123456789abcdef",
                      "0123456789abcdef0123456789abcdé", "", "0123456789abcdef 0123456789abcde"])
    func anythingElseGetsANewVisitor(id: String) {
        let visitor = Self.visitor(cookie: "visitor=\(id)")
        #expect(visitor.isNew && visitor.id != id && Visitor.isWellFormed(visitor.id))
    }

    @Test func onlyLowercaseHexDigitsMakeAnId() {
        let hex = Set("0123456789abcdef".utf8)
        for byte in UInt8.min...UInt8.max {
            for position in [0, 17, 31] {
                var id = Array("0123456789abcdef0123456789abcdef".utf8)
                id[position] = byte
                #expect(Visitor.isWellFormed(String(decoding: id, as: UTF8.self)) == hex.contains(byte), "byte \(byte) at \(position)")
            }
        }
    }
}
