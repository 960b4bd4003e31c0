import Basics
import MicroHTTP
import Reporting
import Testing
import TestSupport
@testable import HomeApp

/// The visitor cookie names a visitor only when it holds an id this site could have issued.
@Suite struct VisitorTests {
    static func visitor(cookie: String) -> Visitor {
        Visitor(request: Request(method: .get, target: "/", pathSegments: [], cookies: Cookies(header: cookie)))
    }

    @Test(arguments: ["0123456789abcdef0123456789abcdef", "ffffffffffffffffffffffffffffffff"])
    func aWellFormedIdIsKept(id: String) {
        let visitor = Self.visitor(cookie: "layout=grid; visitor=\(id)")
        #expect(visitor.id.text == id && !visitor.isNew)
        #expect(Self.visitor(cookie: "visitor=\"\(id)\"; visitor=0").id.text == id)
    }

    @Test(arguments: ["0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcde",
                      "0123456789abcdef0123456789abcdef0", "0123456789abcdeg0123456789abcdef",
                      "0123456789abcdef0123456789abcdé", "", "0123456789abcdef 0123456789abcde"])
    func anythingElseGetsANewVisitor(id: String) {
        let visitor = Self.visitor(cookie: "visitor=\(id)")
        #expect(visitor.isNew && visitor.id.text != id && VisitorID(visitor.id.text) != nil)
        var response = Response(status: .ok)
        visitor.persist(in: &response)
        #expect(response.headers.values("Set-Cookie").contains { $0.hasPrefix("visitor=\(visitor.id.text);") })
    }

    @Test func aCookieOfAnotherNameIsNoVisitor() {
        #expect(Self.visitor(cookie: "xvisitor=0123456789abcdef0123456789abcdef").isNew)
        #expect(Self.visitor(cookie: "visitors=0123456789abcdef0123456789abcdef").isNew)
    }

    @Test func onlyLowercaseHexDigitsMakeAnId() {
        let hex = Set("0123456789abcdef".utf8)
        for byte in UInt8.min...UInt8.max {
            for position in [0, 17, 31] {
                var id = Array("0123456789abcdef0123456789abcdef".utf8)
                id[position] = byte
                let cookie = "visitor=" + String(decoding: id, as: UTF8.self)
                #expect(!Self.visitor(cookie: cookie).isNew == hex.contains(byte), "byte \(byte) at \(position)")
            }
        }
    }

    @Test func theIdGoesFromTheCookieToTheReportLineByteForByte() async throws {
        let directory = try TemporaryDirectory("visitor-line")
        defer { directory.remove() }
        let log = try ReportLog(directory: directory.path("log"))
        let ids = ["0123456789abcdef0123456789abcdef", "00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff",
                   "a0b1c2d3e4f5a6b7c8d9eaf00f1e2d3c"]
        let template = EventTemplate(.launch, layout: "grid")
        for (index, id) in ids.enumerated() {
            let visitor = Self.visitor(cookie: "visitor=\(id)")
            log.record(template, visitor: visitor.id, request: "r-\(index)")
        }
        let lines = { () -> [String] in
            String(decoding: Array(log.store.lines().joined()), as: UTF8.self).split(separator: "\n").map(String.init)
        }
        try await eventually(timeout: 20) { lines().count == ids.count }
        log.shutdown()
        for (line, id) in zip(lines(), ids) {
            #expect(line.contains(#","visitor":"\#(id)","request":"#))
            #expect(try ReportEvent(jsonLine: line).visitor == id)
        }
    }
}

/// What is keyed by a visitor id must not move when the id is carried as its value.
@Suite struct VisitorKeyTests {
    @Test func anIdsViewingKeyIsTheKeyOfItsText() throws {
        let id = try #require(VisitorID("0123456789abcdef0123456789abcdef"))
        #expect(ViewingHistory.key(id) == ViewingHistory.key(id.text))
        #expect(ViewingHistory.key(id) == 0x51c7_add7_7fa4_c1cc)
        for _ in 0..<1000 {
            let random = VisitorID.random()
            #expect(ViewingHistory.key(random) == ViewingHistory.key(random.text))
        }
        // Text that spells no id (as no cookie this site issues does) is keyed by its bytes.
        #expect(ViewingHistory.key(id.text.uppercased()) != ViewingHistory.key(id))
        #expect(ViewingHistory.key("alice") == ViewingHistory.key("alice"))
        #expect(ViewingHistory.key("alice") != ViewingHistory.key("bob"))
    }
}
