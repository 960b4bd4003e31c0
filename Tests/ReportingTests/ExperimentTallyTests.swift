import Foundation
import Logging
import ReportFixtures
import Testing
import TestSupport

@testable import Reporting

/// The writer's exact per-visitor experiment sums against the same sums counted the obvious way
/// from the events, live, after a restart, and rebuilt from the log when the tallies are missing,
/// damaged or were left in the middle of a chunk.
@Suite struct ExperimentTallyTests {
    /// Visitor by visitor, in log order: the group, segment and day of the first event carrying
    /// the experiment; the cells as well as the whole groups.
    static func naive(_ events: [ReportEvent]) -> [String: ExperimentVisitors] {
        struct Visitor {
            var group: String
            var segment: VisitorSegment
            var day: Int32
            var views = 0
            var selections = 0
            var plays = 0
            var kinds: Set<ReportEvent.Name> = []
        }
        var visitors: [String: [String: Visitor]] = [:]
        var groupOrder: [String: [String]] = [:]
        for event in events {
            guard let id = event.visitor else { continue }
            ReportEvent.forEachExperiment(in: event.properties) { experiment, group in
                if visitors[experiment]?[id] == nil {
                    let day = Int32(ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(event.timestamp), ReportTimestamp.msPerDay))
                    visitors[experiment, default: [:]][id] = Visitor(
                        group: group, segment: VisitorSegment(device: event.properties["device"], cohort: event.properties["cohort"]),
                        day: day)
                    if !(groupOrder[experiment] ?? []).contains(group) { groupOrder[experiment, default: []].append(group) }
                }
                switch event.name {
                case .launch: visitors[experiment]![id]!.views += 1
                case .longSelected, .shortSelected, .streamSelected, .errorShown:
                    if event.name != .errorShown { visitors[experiment]![id]!.selections += 1 }
                    visitors[experiment]![id]!.kinds.insert(event.name)
                case .playStarted: visitors[experiment]![id]!.plays += 1
                default: break
                }
            }
        }
        func sums(_ visitor: Visitor) -> VisitorSums {
            var s = VisitorSums()
            s.visitors = 1
            s.converting = visitor.selections > 0 ? 1 : 0
            s.convertingLong = visitor.kinds.contains(.longSelected) ? 1 : 0
            s.convertingShort = visitor.kinds.contains(.shortSelected) ? 1 : 0
            s.convertingStream = visitor.kinds.contains(.streamSelected) ? 1 : 0
            s.selections = visitor.selections
            s.selectionSquares = visitor.selections * visitor.selections
            s.views = visitor.views
            s.viewSquares = visitor.views * visitor.views
            s.viewSelectionProducts = visitor.views * visitor.selections
            s.erroring = visitor.kinds.contains(.errorShown) ? 1 : 0
            s.playing = visitor.plays > 0 ? 1 : 0
            s.plays = visitor.plays
            s.playSquares = visitor.plays * visitor.plays
            return s
        }
        var out: [String: ExperimentVisitors] = [:]
        for name in visitors.keys {
            let order = groupOrder[name]!
            var cells: [Int32: [VisitorSums]] = [:]
            let groups = order.map { group -> (String, VisitorSums) in
                var whole = VisitorSums()
                for visitor in visitors[name]!.values where visitor.group == group {
                    whole.add(sums(visitor))
                    let index = order.firstIndex(of: group)! * VisitorSegment.count + visitor.segment.index
                    cells[visitor.day, default: [VisitorSums](repeating: VisitorSums(), count: 8 * VisitorSegment.count)][index]
                        .add(sums(visitor))
                }
                return (group, whole)
            }
            out[name] = ExperimentVisitors(name: name, groups: groups, cells: cells)
        }
        return out
    }

    /// The groups' sums, without the cells, for a failure's message.
    static func describe(_ tallies: [String: ExperimentVisitors]?) -> String {
        guard let tallies else { return "nil" }
        var parts: [String] = []
        for name in tallies.keys.sorted() {
            for group in tallies[name]!.groups {
                let fields: [String] = (0..<VisitorSums.fieldCount).map { String(group.sums[field: $0]) }
                parts.append(name + " " + group.group + ": " + fields.joined(separator: " "))
            }
        }
        return parts.joined(separator: "; ")
    }

    /// Groups compared by name (a rebuilt tally meets them in the same order, but say so plainly).
    static func same(_ a: [String: ExperimentVisitors]?, _ b: [String: ExperimentVisitors]) -> Bool {
        guard let a, Set(a.keys) == Set(b.keys) else { return false }
        return b.allSatisfy { name, expected in
            let found = a[name]!
            return found.groups.count == expected.groups.count && expected.groups.allSatisfy { found.sums($0.group) == $0.sums }
        }
    }

    func configuration(_ directory: TemporaryDirectory) -> ReportLog.Configuration {
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 32 * 1024
        return configuration
    }

    @Test func theTalliesEqualTheEventsLiveAndAfterARestart() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let events = RandomReportLog.events(6000, seed: 21, start: dayStart + 80_000_000)
        let expected = Self.naive(events)
        #expect(expected["hero"]?.groups.count == 2 && expected["color"]?.groups.count == 2)
        #expect(expected["hero"]!.groups.allSatisfy { $0.sums.converting > 0 && $0.sums.viewSelectionProducts > 0 })
        let log = try ReportLog(configuration: configuration(directory))
        for event in events { log.record(event) }
        try await eventually("\(Self.describe(log.store.experimentVisitors())) vs \(Self.describe(expected))", timeout: 20) { Self.same(log.store.experimentVisitors(), expected) }
        log.shutdown()
        #expect(log.store.catalog.segments.count > 5, "several segments, some compressed")
        let reopened = try ReportLog(configuration: configuration(directory))
        try await eventually(timeout: 20) { Self.same(reopened.store.experimentVisitors(), expected) }
        reopened.shutdown()
    }

    @Test(arguments: ["missing", "damaged", "applying", "behind"])
    func talliesThatDoNotMatchTheLogAreRebuiltFromIt(problem: String) async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let events = RandomReportLog.events(3000, seed: 5, start: dayStart + 80_000_000)
        let expected = Self.naive(events)
        let log = try ReportLog(configuration: configuration(directory))
        for event in events.prefix(2000) { log.record(event) }
        log.shutdown()
        let tallies = directory.path("reports/experiments")
        switch problem {
        case "missing": try FileManager.default.removeItem(atPath: tallies)
        case "damaged":
            // The header's capacity no longer matches the file's size.
            let handle = try #require(FileHandle(forUpdatingAtPath: tallies + "/hero.tally"))
            try handle.seek(toOffset: 8)
            handle.write(Data([0xFF, 0xFF, 0, 0, 0, 0, 0, 0]))
            try handle.close()
        case "applying":
            let handle = try #require(FileHandle(forUpdatingAtPath: tallies + "/position"))
            handle.write(Data([1]))
            try handle.close()
        default:
            // Events written with the tallies away: the log went on without them.
            try FileManager.default.moveItem(atPath: tallies, toPath: directory.path("aside"))
            let other = try ReportLog(configuration: configuration(directory))
            for event in events.dropFirst(2000) { other.record(event) }
            other.shutdown()
            try FileManager.default.removeItem(atPath: tallies)
            try FileManager.default.moveItem(atPath: directory.path("aside"), toPath: tallies)
        }
        let reopened = try ReportLog(configuration: configuration(directory))
        if problem != "behind" { for event in events.dropFirst(2000) { reopened.record(event) } }
        try await eventually("\(problem): \(Self.describe(reopened.store.experimentVisitors())) vs \(Self.describe(expected))", timeout: 20) { Self.same(reopened.store.experimentVisitors(), expected) }
        reopened.shutdown()
    }

    /// A position file that holds no position is said to be damaged, not taken for a new log's.
    @Test func aDamagedPositionFileIsSaidSoAndTheTalliesRebuilt() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let events = RandomReportLog.events(1000, seed: 9, start: dayStart + 80_000_000)
        let expected = Self.naive(events)
        let log = try ReportLog(configuration: configuration(directory))
        for event in events { log.record(event) }
        log.shutdown()
        try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: directory.path("reports/experiments/position")))
        let capture = LogCapture()
        let reopened = try ReportLog(configuration: configuration(directory), logger: Logger(label: "test") { _ in capture.handler })
        try await eventually(timeout: 20) { Self.same(reopened.store.experimentVisitors(), expected) }
        reopened.shutdown()
        let rebuilt = capture.metadata(of: "experiment tallies rebuilt from the report log")
        #expect(rebuilt.map { $0["reason"] } == ["their position file was damaged"], "\(capture.messages)")
        #expect(capture.messages.contains("warning experiment tallies rebuilt from the report log"))
    }

    /// Every visitor is in one cell (group × device × cohort × day of first exposure): each segment
    /// and each range of days equals the events counted the obvious way, and the segments of one
    /// kind add up to the whole, live and after a restart (the cells added up from the slots).
    @Test func segmentsAndDaysEqualTheEventsAndAddUpToTheWhole() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        var random = SplitMix64(state: 8)
        let events = RandomReportLog.events(6000, seed: 34, start: dayStart + 40_000_000).map { event in
            var event = event
            if let device = [nil, "phone", "tablet", "desktop", "fridge"].randomElement(using: &random)! { event.properties["device"] = device }
            if let cohort = [nil, "new", "returning"].randomElement(using: &random)! { event.properties["cohort"] = cohort }
            return event
        }
        let expected = Self.naive(events)
        let days = Set(expected["hero"]!.cells.keys)
        #expect(days.count >= 2, "visitors first exposed on more than one day")
        let log = try ReportLog(configuration: configuration(directory))
        for event in events { log.record(event) }
        try await eventually(timeout: 20) { Self.same(log.store.experimentVisitors(), expected) }
        log.shutdown()
        let reopened = try ReportLog(configuration: configuration(directory))
        try await eventually(timeout: 20) { Self.same(reopened.store.experimentVisitors(), expected) }
        let found = try #require(reopened.store.experimentVisitors())
        let firstDay = days.min()!
        for name in ["hero", "color"] {
            let tally = try #require(found[name]), naive = try #require(expected[name])
            for segment in VisitorSegmentFilter.choices {
                for range in [nil, firstDay..<(firstDay + 1), (firstDay + 1)..<(firstDay + 30)] as [Range<Int32>?] {
                    #expect(Self.same([name: tally.filtered(segment, days: range)], [name: naive.filtered(segment, days: range)]),
                            "\(name) \(segment.name) \(String(describing: range))")
                }
            }
            for kind in [VisitorSegmentFilter.choices.filter { if case .device = $0 { true } else { false } },
                         VisitorSegmentFilter.choices.filter { if case .cohort = $0 { true } else { false } }] {
                for group in naive.groups {
                    var total = VisitorSums()
                    for segment in kind { total.add(tally.filtered(segment).sums(group.group)!) }
                    #expect(total == group.sums, "\(name) \(group.group): the segments add up to the whole")
                }
            }
            let byDay = days.sorted().map { tally.filtered(.all, days: $0..<($0 + 1)).groups.map(\.sums.visitors).reduce(0, +) }
            #expect(byDay.reduce(0, +) == naive.groups.map(\.sums.visitors).reduce(0, +) && byDay.allSatisfy { $0 > 0 })
        }
        reopened.shutdown()
    }

    /// A ninth group is not counted, and the tally says its sums are incomplete.
    @Test func aGroupBeyondTheLimitIsLeftOutAndSaidSo() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = try ReportLog(configuration: configuration(directory))
        for group in 0..<9 {
            log.record(event(at: dayStart + Int64(group), visitor: "v\(group)", properties: ["experiment.many": "g\(group)"]))
        }
        try await eventually(timeout: 20) { log.store.experimentVisitors()?["many"]?.uncountedGroups == true }
        let many = log.store.experimentVisitors()?["many"]
        #expect(many?.groups.count == ExperimentTallyLimits.groups && many?.groups.allSatisfy { $0.sums.visitors == 1 } == true)
        log.shutdown()
        let reopened = try ReportLog(configuration: configuration(directory))
        try await eventually("still said after a restart", timeout: 20) { reopened.store.experimentVisitors()?["many"]?.uncountedGroups == true }
        reopened.shutdown()
    }

    /// Each visitor's sums go into the cell of the day of their first exposure, whatever the
    /// order the days come in, and a reloaded tally adds up the same cells from its slots.
    @Test func visitorsAreCountedInTheDayTheyCameInWhateverTheOrder() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let tally = try #require(ExperimentTally.create(name: "days", path: directory.path("days.tally")))
        let group = try #require(tally.groupIndex("a"))
        for (visitor, day) in [(UInt64(1) << 40, UInt16(10)), (2 << 40, 11), (3 << 40, 10), (4 << 40, 12), (5 << 40, 11)] {
            tally.add(visitor: visitor, group: group, kind: .view, day: day, segment: 1)
        }
        // Later events of a visitor stay in the day they came in.
        tally.add(visitor: 1 << 40, group: group, kind: .long, day: 12, segment: 1)
        let cells = tally.visitors.cells
        let index = Int(group) * VisitorSegment.count + 1
        #expect(cells.keys.sorted() == [10, 11, 12])
        #expect(cells[10]?[index].visitors == 2 && cells[11]?[index].visitors == 2 && cells[12]?[index].visitors == 1)
        #expect(cells[10]?[index].converting == 1 && cells[12]?[index].converting == 0)
        let reloaded = try #require(ExperimentTally.load(name: "days", path: directory.path("days.tally")))
        #expect(reloaded.visitors.cells == cells)
    }

    /// The change an event makes, worked out for its kind's fields, is the visitor's sums after it
    /// less their sums before, for every kind, from fresh visitors to counters at their limits.
    @Test func anEventsChangeIsTheSumsAfterLessTheSumsBefore() {
        let kinds: [VisitorRecord.Kind] = [.exposure, .view, .long, .short, .stream, .error, .play]
        var records = [VisitorRecord(), VisitorRecord(views: .max), VisitorRecord(selections: .max, flags: 7),
                       VisitorRecord(plays: .max - 1), VisitorRecord(views: 3, selections: 2, flags: VisitorRecord.short | 8, plays: 5)]
        var random = SplitMix64(state: 11)
        for _ in 0..<200 {
            let word = random.next()
            records.append(VisitorRecord(views: UInt32(word & 0xFFFF), selections: UInt16(word >> 16 & 0xFF),
                                         flags: UInt8(word >> 24 & 0xF), plays: UInt32(word >> 32 & 0x3FF)))
        }
        var checked = 0
        for record in records {
            for kind in kinds {
                var counted = record, changed = record
                let didCount = counted.count(kind)
                let change = changed.change(counting: kind)
                #expect(changed == counted, "the record after \(kind) at \(record)")
                guard didCount else {
                    #expect(change == nil, "\(kind) at \(record) changed nothing")
                    continue
                }
                var expected = counted.sums
                expected.subtract(record.sums)
                #expect(change == expected, "\(kind) at \(record)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    @Test func aTableGrowsPastItsFirstSizeAndKeepsEveryVisitor() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let tally = try #require(ExperimentTally.create(name: "big", path: directory.path("big.tally")))
        let group = try #require(tally.groupIndex("a"))
        var random = SplitMix64(state: 3)
        var hashes: [UInt64] = []
        for _ in 0..<5000 { hashes.append(random.next()) }
        for hash in hashes { tally.add(visitor: hash, group: group, kind: .view) }
        for hash in hashes.prefix(1000) { tally.add(visitor: hash, group: group, kind: .long) }
        let sums = tally.sums(0)
        #expect(sums.visitors == 5000 && sums.views == 5000 && sums.converting == 1000 && sums.convertingLong == 1000)
        #expect(sums.viewSelectionProducts == 1000 && sums.selectionSquares == 1000)
        #expect(tally.visitors.cells.values.reduce(VisitorSums()) { total, row in
            var total = total
            for cell in row { total.add(cell) }
            return total
        } == sums, "the cells add up to the group")
        let reloaded = try #require(ExperimentTally.load(name: "big", path: directory.path("big.tally")))
        #expect(reloaded.sums(0) == sums && reloaded.groupNames == ["a"] && reloaded.visitors.cells == tally.visitors.cells)
    }
}
