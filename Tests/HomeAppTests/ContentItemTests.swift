import Foundation
import Testing
@testable import HomeApp

/// Content item display.
@Suite struct ContentItemTests {
    /// Saturday 21 November 2026, 12:53 UTC.
    let now = Date(timeIntervalSince1970: 1_795_265_580)

    func item(_ timing: ContentItem.Timing) -> ContentItem {
        ContentItem(id: "x-1", title: "T", description: "D", image: "images/x.svg", timing: timing)
    }

    func date(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    @Test func kindFollowsTiming() throws {
        #expect(item(.minutes(90)).kind == .long)
        #expect(item(.seconds(90)).kind == .short)
        #expect(item(.startsAt(now)).kind == .live)
        #expect(item(.minutes(90)).durationMinutes == 90 && item(.minutes(90)).durationSeconds == nil)
    }

    @Test(arguments: [
        (112, "1 h 52 min"), (45, "45 min"), (120, "2 h"), (61, "1 h 1 min"),
    ])
    func filmDurationsInHoursAndMinutes(minutes: Int, text: String) {
        #expect(item(.minutes(minutes)).durationText == text)
        #expect(item(.minutes(minutes)).timingText(now: now) == text)
    }

    @Test(arguments: [
        (225, "3:45"), (48, "0:48"), (600, "10:00"), (3725, "1:02:05"),
    ])
    func clipDurationsAsAClock(seconds: Int, text: String) {
        #expect(item(.seconds(seconds)).durationText == text)
    }

    @Test func liveStreamsLiveNowLaterTodayLaterThisYearNextYear() throws {
        #expect(try date("2026-11-21T12:53:00Z") == now)
        let started = item(.startsAt(try date("2026-11-21T12:00:00Z")))
        #expect(started.isLive(at: now))
        #expect(started.scheduleText(now: now) == "Live now")
        #expect(started.durationText == nil)

        let tonight = item(.startsAt(try date("2026-11-21T20:30:00Z")))
        #expect(!tonight.isLive(at: now))
        #expect(tonight.timingText(now: now) == "Starts 20:30 UTC")
        #expect(item(.startsAt(try date("2026-11-22T07:05:00Z"))).scheduleText(now: now) == "Starts Sun 22 Nov, 07:05 UTC")
        #expect(item(.startsAt(try date("2027-01-05T22:00:00Z"))).scheduleText(now: now) == "Starts Tue 5 Jan 2027, 22:00 UTC")
        #expect(item(.minutes(90)).scheduleText(now: now) == nil)
        #expect(!item(.minutes(90)).isLive(at: now))
    }
}
