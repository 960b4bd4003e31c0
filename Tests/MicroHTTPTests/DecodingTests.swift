import Basics
import Testing
@testable import MicroHTTP

@Suite struct CookieParserTests {
    @Test func parsesPairsAndTrimsSpaces() {
        let cookies = CookieParser.parse("visitor=abc123; layout=grid ;  theme=\"dark\"")
        #expect(cookies == ["visitor": "abc123", "layout": "grid", "theme": "dark"])
    }

    @Test func skipsMalformedPairsAndKeepsTheFirstDuplicate() {
        let cookies = CookieParser.parse("novalue; =empty; bad name=1; a=1; a=2;;")
        #expect(cookies == ["a": "1"])
    }

    @Test func aNameIsReadOnlyWhenEveryByteIsATokenCharacter() {
        // RFC 9110 §5.6.2 tchar, spelled out: the parser tests a bit mask.
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max where byte != UInt8(ascii: ";") && byte != UInt8(ascii: "=") {
            let name = [UInt8(ascii: "a"), byte, UInt8(ascii: "b")]
            let header = String(decoding: name + Array("=1; z=2".utf8), as: UTF8.self)
            let expected = tchar.contains(byte) ? String(decoding: name, as: UTF8.self) : nil
            #expect(CookieParser.parse(header).keys.sorted() == ([expected, "z"] as [String?]).compactMap { $0 }.sorted(),
                    "byte \(byte)")
        }
    }

    @Test func readsABoundedNumberOfCookies() {
        let flood = (0..<1000).map { "c\($0)=\($0)" }.joined(separator: "; ")
        #expect(CookieParser.parse(flood).count == CookieParser.maximumCount)
    }

    @Test(arguments: ["visitor=abc123; layout=grid ;  theme=\"dark\"", "novalue; =empty; bad name=1; a=1; a=2;;",
                      "layout=list; layout=grid; lay=x; layouts=y", "name=Zürich; empty=", ""])
    func aLookupFindsWhatTheParserFinds(header: String) {
        let parsed = CookieParser.parse(header)
        for name in Set(parsed.keys).union(["visitor", "layout", "a", "lay", "missing", "bad name", ""]) {
            #expect(Cookies(header: header)[name] == parsed[name], "\(name)")
        }
    }

    @Test(arguments: ["qa=1", "a=1; qa=2", "a=xqa=; b=2", "qa=", "x=1;qa=2"])
    func aHeaderThatNamesTheCookieMayHoldIt(header: String) {
        #expect(Cookies(header: header).mayHold("qa"))
    }

    @Test(arguments: ["", "q", "qa", "a=qa", "qa ; b=1", "b=1; aq=2", "a=1; qa"])
    func aHeaderWithoutTheNameAndEqualsSignHoldsNoSuchCookie(header: String) {
        #expect(!Cookies(header: header).mayHold("qa"))
        #expect(Cookies(header: header)["qa"] == nil)
    }

    @Test func aLookupReadsNoFurtherThanTheBound() {
        let flood = (0..<1000).map { "c\($0)=\($0)" }.joined(separator: "; ")
        #expect(Cookies(header: flood)["c63"] == "63")
        #expect(Cookies(header: flood)["c64"] == nil)
    }

    @Test func anIdCookieIsTheOneALookupFindsReadAsAnId() {
        let id = "0123456789abcdef0123456789abcdef", other = "fedcba9876543210fedcba9876543210"
        let headers = [
            "visitor=\(id)", "visitor=\(id); onboarded=1", " visitor = \(id) ;", "visitor=\"\(id)\"",
            "visitors=\(other); visitor=\(id)", "xvisitor=\(other); visitor=\(id); visitor=\(other)",
            "bad name=1; visitor=\(id)", "visitor; visitor=\(id)", "visitor=\(id.uppercased())", "visitor=\(id)0",
            "visitor=", "", "novisitor", "a=1;;visitor=\(other)", "visitor=\(id);", "visitor=\(id) ; visitor=\(other)",
            "visitor=\(id)x; visitor=\(other)", "visitor=\(id)\"", "visitor=\(id.dropLast())g; visitor=\(other)",
            "visitor=\(id.dropLast()); visitor=\(other)", "visitor=\"\(id.dropLast(2))\";", "visitor=\t\(id.dropLast())",
            "visitor=\(id); qa=1", "qa=1; visitor=\(id)",
            (0..<63).map { "c\($0)=\($0)" }.joined(separator: "; ") + "; visitor=\(id)",
            (0..<64).map { "c\($0)=\($0)" }.joined(separator: "; ") + "; visitor=\(id)",
            (0..<64).map { "bad name\($0)=\($0)" }.joined(separator: "; ") + "; visitor=\(id)",
        ]
        for header in headers {
            let cookies = Cookies(header: header)
            #expect(cookies.id("visitor") == cookies["visitor"].flatMap { VisitorID($0) }, "\(header)")
            #expect(cookies.id("visitor", mayHold: "qa") == (cookies.id("visitor"), cookies.mayHold("qa")), "\(header)")
        }
        #expect(Cookies(header: "a=1; visitor=\(id)").id("visitor")?.text == id)
    }

    @Test func keepsUTF8ValuesAndEmptyValues() {
        #expect(CookieParser.parse("name=Zürich; empty=") == ["name": "Zürich", "empty": ""])
    }
}

@Suite struct PathDecodingTests {
    @Test func decodesEachSegmentOnItsOwn() {
        #expect(PathDecoding.segments(of: "/long/m-1") == ["long", "m-1"])
        #expect(PathDecoding.segments(of: "/a%2Fb/c") == ["a/b", "c"])
        #expect(PathDecoding.segments(of: "/") == [])
        #expect(PathDecoding.segments(of: "//x//y/") == ["", "x", "", "y", ""])
        #expect(PathDecoding.segments(of: "/caf%C3%A9") == ["café"])
        #expect(PathDecoding.segments(of: "/a+b") == ["a+b"])
    }

    @Test func refusesMalformedEscapesAndInvalidUTF8() {
        #expect(PathDecoding.segments(of: "/%zz") == nil)
        #expect(PathDecoding.segments(of: "/%4") == nil)
        #expect(PathDecoding.segments(of: "/%FF") == nil)
    }

    @Test func recognisesTraversalInEverySpelling() {
        for segment in ["..", ".", "a/b", "..\\x", "a\u{0}b"] {
            #expect(PathDecoding.isTraversal(segment), "\(segment)")
        }
        #expect(PathDecoding.segments(of: "/%2e%2e").map { $0.contains(where: PathDecoding.isTraversal) } == true)
        #expect(!PathDecoding.isTraversal("..hidden"))
    }
}

@Suite struct SetCookieTests {
    @Test func writesEveryAttribute() {
        let cookie = SetCookie(name: "layout", value: "grid", maxAge: 3600, secure: true, sameSite: .strict)
        #expect(cookie.headerValue == "layout=grid; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Strict")
    }

    @Test func deletionExpiresAtOnce() {
        #expect(SetCookie.deletion(of: "layout").headerValue == "layout=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
    }

    @Test func valuesCannotInjectAttributesOrHeaders() {
        let cookie = SetCookie(name: "x", value: "a; Domain=evil\r\nSet-Cookie: y=1", sameSite: nil)
        #expect(cookie.headerValue == "x=a%3B%20Domain=evil%0D%0ASet-Cookie:%20y=1; Path=/; HttpOnly")
    }
}

@Suite struct ETagMatchingTests {
    @Test func matchesStrongWeakListsAndStar() {
        #expect(StaticFiles.matches("\"abc\"", "\"abc\""))
        #expect(StaticFiles.matches("W/\"abc\"", "\"abc\""))
        #expect(StaticFiles.matches("\"x\", \"abc\"", "\"abc\""))
        #expect(StaticFiles.matches("*", "\"abc\""))
        #expect(!StaticFiles.matches("\"abcd\"", "\"abc\""))
    }
}

@Suite struct EscapeCheckTests {
    @Test func acceptsTwoDigitEscapesOtherThanNUL() {
        #expect(PathDecoding.hasWellFormedEscapes(Array("a=%41&b=%fF&c=+".utf8)))
        #expect(PathDecoding.hasWellFormedEscapes([UInt8]()))
        for bad in ["%", "%4", "%g0", "a=%00", "%%41", "x%4%41"] {
            #expect(!PathDecoding.hasWellFormedEscapes(Array(bad.utf8)), "\(bad)")
        }
    }
}
