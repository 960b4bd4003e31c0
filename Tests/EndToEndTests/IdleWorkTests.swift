import Foundation
import Testing
import TestSupport

/// Work nobody asked for does not run: an idle server's threads sleep, and without a watcher of
/// `/reports/stream` no thread formats the lines the pages write. Counted in the real process's
/// context switches (`/proc/<pid>/task`), not in time.
@Suite struct IdleWorkTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("idle-work") }

    func start() throws -> ServerProcess { try .reporting(to: folder) }

    func lines() -> Int { ((try? ReportSegments.text(of: logPath)) ?? "").utf8.count { $0 == UInt8(ascii: "\n") } }

    /// Serves `rounds` home pages, each written to the log before the next (a flush of the writer each).
    func servePages(_ browser: Browser, rounds: Int) throws {
        for _ in 0..<rounds {
            let before = lines()
            #expect(try browser.get("/").status == 200)
            try eventually { lines() > before }
        }
    }

    @Test func anIdleServerWakesNoThreadMoreThanOnceASecond() throws {
        let server = try start()
        do {
            // A page and an acknowledged event first: the writer, both sweepers and the feed have had work.
            let browser = Browser(port: server.port)
            try servePages(browser, rounds: 1)
            #expect(try browser.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "1")]).status == 204)
        }
        // The connection is closed; over a window of three seconds every thread sleeps but for
        // the file watchers' once a second (the writer used to wake 20 times a second, the head
        // sweeper 4, the acknowledgement sweeper 2).
        let window = 3.0
        let before = ThreadWakeups.of(server.processIdentifier)
        Thread.sleep(forTimeInterval: window)  // the subject: wake-ups counted over a stretch of idle time
        let woken = ThreadWakeups.since(before, ThreadWakeups.of(server.processIdentifier))
        let busy = woken.filter { Double($0.value) > window + 1 }
        #expect(busy.isEmpty, "threads that woke more than once a second while idle: \(busy)")
    }

    @Test func withoutAWatcherNoThreadFormatsTheStream() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        try servePages(browser, rounds: 1)
        var before = ThreadWakeups.of(server.processIdentifier)
        try servePages(browser, rounds: 5)
        var woken = ThreadWakeups.since(before, ThreadWakeups.of(server.processIdentifier))
        #expect(woken["report-stream", default: 0] == 0, "the stream's feed woke \(woken["report-stream", default: 0]) times for no watcher")

        // A watcher gets the lines; once it leaves, the feed sleeps again.
        do {
            let watcher = try ReportStreamTests.EventReader(port: server.port)
            #expect(watcher.status == 200)
            try servePages(browser, rounds: 1)
            let event = try watcher.next()
            #expect(event?.data.contains("\"event\"") == true)
        }
        try eventually("the stream's feed kept waking after its last watcher left") {
            before = ThreadWakeups.of(server.processIdentifier)
            try servePages(browser, rounds: 2)
            woken = ThreadWakeups.since(before, ThreadWakeups.of(server.processIdentifier))
            return woken["report-stream", default: 0] == 0
        }
    }
}
