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
}
