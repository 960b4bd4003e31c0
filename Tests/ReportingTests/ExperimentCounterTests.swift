import Basics
import Testing

@testable import Reporting

/// The one counter of events by experiment group, as the shipper uses it: its hours and days are
/// the minutes summed, its visitors the hours merged.
@Suite struct ExperimentCounterTests {
    static let hourMs: Int64 = 3_600_000

    @Test func minutesSumIntoHoursAndDaysAndVisitorsMergeIntoDays() {
        var counter = ExperimentCounter()
        #expect(counter.isEmpty)
        // Day 20000 (since 1970), hours 1 and 2; visitor v0 in both hours, v1 in the second only.
        let day = Int64(20_000) * 24 * Self.hourMs
        let events: [(Int64, String, String?)] = [
            (day + Self.hourMs + 60_000, "view", "v0"), (day + Self.hourMs + 61_000, "view", "v0"),
            (day + 2 * Self.hourMs, "view", "v0"), (day + 2 * Self.hourMs + 5_000, "selection", "v1"),
            (day + 2 * Self.hourMs + 9_000, "view", nil),
        ]
        for (ms, name, visitor) in events {
            counter.add(ms: ms, name: name, layout: "grid", visitor: visitor, properties: ["experiment.hero": "a"])
        }
        counter.add(ms: day, name: "view", layout: nil, visitor: "v2", properties: ["other": "x"])
        counter.add(ms: day, name: "view", layout: nil, visitor: "v3", properties: ["experiment.hero": "b", ReportEvent.qaMark: "1"])
        #expect(!counter.isEmpty)
        func count(_ start: Int64, _ name: String) -> ExperimentCounter.Count {
            .init(startMs: start, experiment: "hero", group: "a", event: name, layout: "grid")
        }
        #expect(counter.counts(every: 1) == [count(day + Self.hourMs + 60_000, "view"): 2, count(day + 2 * Self.hourMs, "view"): 2,
                                             count(day + 2 * Self.hourMs, "selection"): 1])
        #expect(counter.counts(every: 60) == [count(day + Self.hourMs, "view"): 2, count(day + 2 * Self.hourMs, "view"): 2,
                                              count(day + 2 * Self.hourMs, "selection"): 1])
        #expect(counter.counts(every: 1440) == [count(day, "view"): 4, count(day, "selection"): 1])
        let hours = counter.visitors(every: 1)
        #expect(hours.keys.map(\.startMs).sorted() == [day + Self.hourMs, day + 2 * Self.hourMs])
        #expect(hours.values.map(\.estimate).sorted() == [1, 2])
        let days = counter.visitors(every: 24)
        #expect(days.count == 1 && days[.init(startMs: day, experiment: "hero", group: "a")]?.estimate == 2)
    }
}
