import Testing
@testable import Basics

/// What reaches a log line from a request: escaped, cut, and rate-limited per message.
@Suite struct LogLineSanitizerTests {
    @Test(arguments: [
        ("plain /path?a=1", "plain /path?a=1"),
        ("x\n2026-01-01 critical forged", "x\\n2026-01-01 critical forged"),
        ("a\rb\tc\u{1B}[2J", "a\\rb\\tc\\e[2J"),
        ("back\\slash", "back\\\\slash"),
        ("nul\u{0}del\u{7F}c1\u{85}", "nul\\u{0}del\\u{7F}c1\\u{85}"),
        ("ltr\u{202E}rtl\u{2028}sep", "ltr\\u{202E}rtl\\u{2028}sep"),
        ("café ünïcode", "café ünïcode"),
    ])
    func escapes(_ raw: String, _ expected: String) {
        #expect(LogLineSanitizer.clean(raw) == expected)
    }

    @Test func cutsLongValuesAndSaysBy() {
        let cut = LogLineSanitizer.clean(String(repeating: "a", count: 4_000))
        #expect(cut.hasPrefix(String(repeating: "a", count: 300) + "…(cut at 300 bytes of 4000)"))
        #expect(cut.utf8.count < 340)
        // Escapes count toward the cut, so an escaped value cannot grow past it either.
        #expect(LogLineSanitizer.clean(String(repeating: "\n", count: 4_000)).utf8.count < 340)
    }

    @Test func aBurstThenASteadyRateThenACountOfWhatWasDropped() {
        let limiter = LogRateLimiter(burst: 3, perSecond: 1)
        let start: Int64 = 1_000_000_000_000
        #expect((0..<3).map { _ in limiter.admit("no route", now: start) } == [0, 0, 0])
        #expect(limiter.admit("no route", now: start) == nil)
        #expect(limiter.admit("no route", now: start) == nil)
        #expect(limiter.admit("other", now: start) == 0, "each message has its own budget")
        #expect(limiter.admit("no route", now: start + 1_000_000_000) == 2, "a second later: one more, saying 2 were dropped")
        #expect(limiter.admit("no route", now: start + 1_000_000_000) == nil)
    }
}
