import Foundation
import Testing
import TestSupport

/// A visitor's rows and everyone's Trending now with a report database: three real instances on
/// one throwaway PostgreSQL. What a visitor does on one instance shows in their rows on the
/// others (applied from the shared stream, or looked up in the database when the instance did
/// not hold them), and every instance's Trending now is the one the union of their logs gives.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil,
                             "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/test does)"))
final class DatabaseViewingTests {
    let fixture: DatabaseInstances
    var instances: [ServerProcess] { fixture.instances }

    init() throws {
        fixture = try .runningListOrGrid(3, folder: "shared-viewing", arguments: ["--play-statistics-interval", "0.2"])
    }

    /// A row of the visitor's home: its links and, per tile, the progress bar's value (nil without one).
    static func row(_ name: String, on browser: Browser) throws -> [(link: String, progress: String?)]? {
        let html = try browser.page("/?layout=list").html
        guard let row = html.first(where: { $0.hasClass("personal-row") && $0["data-row-name"] == name }) else { return nil }
        return row.all(class: "personal-tile").map { tile in
            (tile.first { $0.hasClass("personal-tile__open") }?["href"] ?? "", tile.first { $0.tag == "progress" }?["value"])
        }
    }

    /// A browser on `instance` that is the visitor `id`.
    func browser(_ instance: Int, visitor id: String) throws -> Browser {
        let browser = Browser(port: instances[instance].port)
        browser.setCookie("visitor", id)
        try browser.get("/")
        return browser
    }

    @Test func aPlayAMyListChangeAndAHistoryClearOnOneInstanceShowOnTheOthers() throws {
        let first = Browser(port: instances[0].port)
        try first.get("/")
        let id = try #require(first.cookies["visitor"])
        // Instance 1 holds the visitor (seen before they played); instance 2 sees them only afterwards.
        let second = try browser(1, visitor: id)
        #expect(try Self.row("continue-watching", on: second) == nil)

        #expect(try first.post("/watch/m-002/play", withToken: []).status == 303)
        #expect(try first.post("/watch/m-002/progress", withToken: [("position", "3720")]).status == 303)
        try eventually("instance 1 shows Continue watching with its progress", timeout: 10) {
            try Self.row("continue-watching", on: second).map { $0.map(\.link) == ["/long/m-002"] && $0.first?.progress == "50" } == true
        }

        #expect(try second.post("/my-list/m-003", withToken: [("action", "add")]).status == 303)
        try eventually("instance 0 shows My List", timeout: 10) { try Self.row("my-list", on: first)?.map(\.link) == ["/long/m-003"] }

        let third = try browser(2, visitor: id)
        try eventually("instance 2, which never held the visitor, looks them up in the database", timeout: 10) {
            try Self.row("continue-watching", on: third)?.first?.progress == "50"
                && Self.row("my-list", on: third)?.map(\.link) == ["/long/m-003"]
        }

        #expect(try first.post("/settings/clear-history", withToken: []).status == 303)
        for browser in [second, third] {
            try eventually("the cleared history is gone on instance \(browser.port)", timeout: 10) {
                try Self.row("continue-watching", on: browser) == nil && Self.row("my-list", on: browser) == nil
            }
        }
    }

    @Test func everyInstancesTrendingNowIsTheListTheStartsOfEveryInstanceMake() throws {
        // Each instance's own starts rank the titles differently from the union.
        let plays: [(instance: Int, items: [String])] = [
            (0, ["m-001", "m-001", "m-004"]), (0, ["m-004"]), (1, ["s-001", "s-001", "m-004", "s-001"]),
            (1, ["m-004"]), (2, ["m-002", "m-004", "m-002"]), (2, ["m-003", "m-002"]), (0, ["m-004"]),
        ]
        for play in plays {
            let browser = Browser(port: instances[play.instance].port)
            try browser.get("/")
            for item in play.items {
                #expect(try browser.post("/watch/\(item)/play", withToken: []).status == 303)
            }
        }
        let starts = plays.flatMap(\.items).count
        try eventually("every start is in a log", timeout: 10) { try self.logged().count == starts }
        var counts: [String: Int] = [:]
        for item in try logged() { counts[item, default: 0] += 1 }
        let expected = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { ($0.key.hasPrefix("s-") ? "/short/" : "/long/") + $0.key }
        #expect(expected.first == "/long/m-004")
        for (index, instance) in instances.enumerated() {
            let newcomer = Browser(port: instance.port)
            try eventually("instance \(index)'s Trending now", timeout: 10) { try Self.row("trending", on: newcomer)?.map(\.link) == expected }
        }
    }

    /// The items of every `play_started` line of every instance's log.
    func logged() throws -> [String] {
        try (0..<instances.count).flatMap { index in
            try ReportSegments.text(of: fixture.folder.path("reports-\(index)")).split(separator: "\n").compactMap { text -> String? in
                guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      object["event"] as? String == "play_started" else { return nil }
                return object["item"] as? String
            }
        }
    }
}
