import Foundation
import ReportFixtures
import Testing
import TestSupport

@testable import Reporting

/// A visitor's events are read from the gzip members that may hold them, and counted exactly.
@Suite struct VisitorMembersTests {
    /// Visitors come in sessions of a few dozen events, five at a time; some come back hours later,
    /// some ids need escaping in JSON, and a tenth of the events have no visitor.
    static func sessions(_ count: Int, seed: UInt64) -> [ReportEvent] {
        var random = SplitMix64(state: seed)
        var ms = dayStart + 1_000
        var open = (0..<5).map { "s\($0)" }
        var next = 5
        let odd = [#"q"uote"#, #"back\slash"#, "caf\u{e9}", "tab\there"]
        return (0..<count).map { index in
            ms += Int64.random(in: 0...400, using: &random)
            let slot = Int.random(in: 0..<open.count, using: &random)
            if Int.random(in: 0..<40, using: &random) == 0 {
                // Some come back: an old session's visitor, far from where they were first seen.
                open[slot] = Bool.random(using: &random) ? "s\(Int.random(in: 0..<max(1, next), using: &random))" : odd.randomElement(using: &random)!
                if open[slot].hasPrefix("s") && open[slot] == "s\(next)" { next += 1 }
            } else if Int.random(in: 0..<40, using: &random) == 0 {
                open[slot] = "s\(next)"
                next += 1
            }
            let names: [ReportEvent.Name] = [.launch, .longSelected, .shortSelected]
            return event(names[index % 3], at: ms, layout: ["list", "grid"].randomElement(using: &random)!,
                         item: "m\(Int.random(in: 0..<30, using: &random))",
                         visitor: Int.random(in: 0..<10, using: &random) == 0 ? nil : open[slot],
                         properties: index % 7 == 0 ? ["note": #"a "visitor":"s1" lookalike"#] : [:])
        }
    }

    func check(_ store: ReportStore, _ events: [ReportEvent], visitors: [String]) {
        for visitor in visitors {
            let filter = ReportFilter(visitor: visitor)
            let mine = events.filter { $0.visitor == visitor }
            let summary = store.summary(filter: filter)
            #expect(summary.total == mine.count, "\(visitor)")
            #expect(summary.byLayout == ReportStoreTests.naive(events, ReportRange(), filter).2, "\(visitor)")
            var listed: [ReportEvent] = []
            var before: ReportPosition?
            var pages = 0
            repeat {
                let page = store.events(matching: filter, before: before, limit: 20)
                listed += page.events
                before = page.next
                pages += 1
            } while before != nil && pages < 200
            #expect(listed.map(\.timestamp) == mine.reversed().map(\.timestamp), "\(visitor): newest first, every one")
            #expect(listed.allSatisfy { $0.visitor == visitor })
        }
    }

    @Test func aVisitorIsReadFromItsMembersAloneAndCountedExactly() throws {
        let directory = try TemporaryDirectory("visitor-members")
        defer { directory.remove() }
        let events = Self.sessions(30_000, seed: 3)
        try ReportLog.write(events, to: directory.path("reports"), segmentBytes: 1 << 20, compressed: true)
        let store = try ReportStore(directory: directory.path("reports"))
        let closed = store.catalog.segments.filter(\.compressed)
        #expect(closed.count >= 3, "\(store.catalog.segments.count) segments")
        // A session's visitor is in a few members of the segments that hold them, not in all.
        var admitted = 0
        var total = 0
        for segment in closed {
            let members = try #require(store.members(holding: "s7", segment), "every compressed segment has its visitor index")
            admitted += members.count
            total += try #require(store.catalog.index(segment)).members.count - 1
        }
        #expect(total > 40)
        #expect(admitted * 4 < total, "s7 admitted in \(admitted) of \(total) members")
        let visitors = ["s0", "s7", "s30", "s\(events.count / 80)", #"q"uote"#, #"back\slash"#, "caf\u{e9}", "tab\there", "nobody", "s1\""]
        check(store, events, visitors: visitors)
        // Without a visitor index (older segments, a crash before it was written) every member is read.
        unlink(store.catalog.visitorIndexPath(closed[0].stamp))
        let torn = store.catalog.visitorIndexPath(closed[1].stamp)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: torn)[.size] as? Int)
        #expect(truncate(torn, off_t(size / 2)) == 0)
        #expect(store.members(holding: "s7", closed[0]) == nil && store.members(holding: "s7", closed[1]) == nil)
        check(store, events, visitors: visitors)
    }
    @Test func theNeedleSearchFindsWhatANaiveSearchFinds() {
        var random = SplitMix64(state: 5)
        let alphabet = Array(#"ab"v:"#.utf8)
        for _ in 0..<20_000 {
            let haystack = (0..<Int.random(in: 0..<24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let needle = (0..<Int.random(in: 0..<5, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let naive = needle.isEmpty || (haystack.count >= needle.count
                && (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle })
            let found = haystack.withUnsafeBytes { h in needle.withUnsafeBytes { LineNeedles.contains(h, $0) } }
            #expect(found == naive, "\(String(decoding: needle, as: UTF8.self)) in \(String(decoding: haystack, as: UTF8.self))")
        }
    }
}
