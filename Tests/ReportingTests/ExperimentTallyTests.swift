import Foundation
import ReportFixtures
import Testing
import TestSupport

@testable import Reporting

/// The writer's exact per-visitor experiment sums against the same sums counted the obvious way
/// from the events, live, after a restart, and rebuilt from the log when the tallies are missing,
/// damaged or were left in the middle of a chunk.
@Suite struct ExperimentTallyTests {
    /// Visitor by visitor, in log order: the group of the first event carrying the experiment.
    static func naive(_ events: [ReportEvent]) -> [String: ExperimentVisitors] {
        struct Visitor { var group: String; var views = 0; var selections = 0; var kinds: Set<ReportEvent.Name> = [] }
        var visitors: [String: [String: Visitor]] = [:]
        var groupOrder: [String: [String]] = [:]
        for event in events {
            guard let id = event.visitor else { continue }
            ReportEvent.forEachExperiment(in: event.properties) { experiment, group in
                if visitors[experiment]?[id] == nil {
                    visitors[experiment, default: [:]][id] = Visitor(group: group)
                    if !(groupOrder[experiment] ?? []).contains(group) { groupOrder[experiment, default: []].append(group) }
                }
                switch event.name {
                case .launch: visitors[experiment]![id]!.views += 1
                case .longSelected, .shortSelected, .streamSelected:
                    visitors[experiment]![id]!.selections += 1
                    visitors[experiment]![id]!.kinds.insert(event.name)
                default: break
                }
            }
        }
        var out: [String: ExperimentVisitors] = [:]
        for name in visitors.keys {
            let groups = groupOrder[name]!.map { group -> (String, VisitorSums) in
                var s = VisitorSums()
                for visitor in visitors[name]!.values where visitor.group == group {
                    s.visitors += 1
                    s.converting += visitor.selections > 0 ? 1 : 0
                    s.convertingLong += visitor.kinds.contains(.longSelected) ? 1 : 0
                    s.convertingShort += visitor.kinds.contains(.shortSelected) ? 1 : 0
                    s.convertingStream += visitor.kinds.contains(.streamSelected) ? 1 : 0
                    s.selections += visitor.selections
                    s.selectionSquares += visitor.selections * visitor.selections
                    s.views += visitor.views
                    s.viewSquares += visitor.views * visitor.views
                    s.viewSelectionProducts += visitor.views * visitor.selections
                }
                return (group, s)
            }
            out[name] = ExperimentVisitors(name: name, groups: groups)
        }
        return out
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
        #expect(await eventually(within: 20) { Self.same(log.store.experimentVisitors(), expected) },
                "\(String(describing: log.store.experimentVisitors())) vs \(expected)")
        log.shutdown()
        #expect(log.store.catalog.segments.count > 5, "several segments, some compressed")
        let reopened = try ReportLog(configuration: configuration(directory))
        #expect(Self.same(reopened.store.experimentVisitors(), expected))
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
        #expect(await eventually(within: 20) { Self.same(reopened.store.experimentVisitors(), expected) },
                "\(problem): \(String(describing: reopened.store.experimentVisitors())) vs \(expected)")
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
        #expect(await eventually(within: 20) { log.store.experimentVisitors()?["many"]?.uncountedGroups == true })
        let many = log.store.experimentVisitors()?["many"]
        #expect(many?.groups.count == ExperimentTallyLimits.groups && many?.groups.allSatisfy { $0.sums.visitors == 1 } == true)
        log.shutdown()
        let reopened = try ReportLog(configuration: configuration(directory))
        #expect(reopened.store.experimentVisitors()?["many"]?.uncountedGroups == true, "still said after a restart")
        reopened.shutdown()
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
        let reloaded = try #require(ExperimentTally.load(name: "big", path: directory.path("big.tally")))
        #expect(reloaded.sums(0) == sums && reloaded.groupNames == ["a"])
    }
}
