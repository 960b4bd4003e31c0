import Basics
import Testing

@testable import Reporting

@Suite struct RollupBuilderTests {
    /// Times back and forth across minutes, hours and 1970, each event by its parts and from a template.
    static let times: [Int64] = [
        dayStart, dayStart + 59_999, dayStart + 60_000, dayStart + 30_000, dayStart + 3_599_999, dayStart + 3_600_000,
        dayStart - 1, dayStart + 3_600_000, -1, 0, -60_000, -60_001, 59_999, dayStart + 86_400_000,
    ]

    @Test func eventsFromTemplatesAreCountedInTheMinutesAndHoursOfTheirTimesAsEventsByTheirParts() {
        let interner = Interner()
        var byParts = RollupBuilder(interner: interner)
        var fromTemplates = RollupBuilder(interner: interner)
        let templates = [EventTemplate(.launch, layout: "grid"), EventTemplate(.longSelected, layout: "list", item: "m-1"),
                         EventTemplate(.shortSelected, properties: ["experiment.hero": "b"])]
        for (index, ms) in Self.times.enumerated() {
            let template = templates[index % templates.count]
            let visitor = String(format: "%032x", index % 3)
            let fixed = template.fixed
            _ = byParts.add(name: fixed.name, layout: fixed.layout, item: fixed.item, properties: fixed.properties,
                        visitor: visitor, ms: ms, bytes: 100)
            _ = fromTemplates.add(template, visitor: VisitorID(visitor)!, ms: ms, bytes: 100)
        }
        let counted = fromTemplates.rollup
        #expect(counted == byParts.rollup)
        // Each event in the minute its time falls in, counted from 1970 by flooring.
        let expected = Dictionary(Self.times.map { (Int32(ReportTimestamp.floorDiv($0, 60_000)), 1) }, uniquingKeysWith: +)
        #expect(Dictionary(counted.counts.map { ($0.key.minute, $0.value) }, uniquingKeysWith: +) == expected)
        let hours = Set(Self.times.map { Int32(ReportTimestamp.floorDiv($0, 3_600_000)) })
        #expect(Set(counted.sketches.keys.map(\.hour)) == hours)
    }
}
