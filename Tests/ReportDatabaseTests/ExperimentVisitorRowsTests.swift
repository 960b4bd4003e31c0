import Foundation
import Logging
import ReportDatabase
import ReportFixtures
import Reporting
import Testing
import TestSupport

/// The per-visitor rows and sums the shippers keep, shipped in many small batches so that most
/// batches update visitors an earlier batch inserted, then from a second instance whose events
/// come earlier for many of the same visitors (moving them to another cell): every cell's sums,
/// the squares included, must equal a recomputation from the raw events once the shipped changes
/// are folded.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct ExperimentVisitorRowsTests {
    static let dayMs: Int64 = 86_400_000
    static let names: [ReportEvent.Name] = [.launch, .launch, .longSelected, .shortSelected, .streamSelected, .errorShown,
                                            .horizontalSwipe, .playStarted]
    /// The sums' columns, in the order `recompute` gives them.
    static let columns = ["visitors", "converting", "converting_long", "converting_short", "converting_stream", "selections",
                          "selection_squares", "views", "view_squares", "view_selection_products", "erroring",
                          "playing", "plays", "play_squares"]

    /// `count` events of `visitors` visitors from `startMs`, each `stepMs` after the last plus `parity`
    /// (so two instances' events never share a millisecond); group, device and cohort drawn per event.
    static func events(_ count: Int, visitors: Range<Int>, startMs: Int64, parity: Int64, seed: UInt64) -> [ReportEvent] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { index in
            var properties = ["experiment.rows-test": ["a", "b", "c"].randomElement(using: &random)!]
            properties["device"] = ["phone", "tablet", "desktop", nil].randomElement(using: &random)!
            properties["cohort"] = ["new", "returning", nil].randomElement(using: &random)!
            if Int.random(in: 0..<3, using: &random) == 0 { properties["experiment.other"] = "x" }
            return ReportEvent(names.randomElement(using: &random)!,
                               timestamp: ReportTimestamp.date(milliseconds: startMs + Int64(index) * 20_002 + parity),
                               layout: "grid", visitor: "visitor-\(Int.random(in: visitors, using: &random))",
                               properties: properties)
        }
    }

    /// Every cell's sums from the raw events, counted plainly: a visitor counts in the group,
    /// segment and day of their earliest event carrying the experiment.
    static func recompute(_ events: [ReportEvent]) -> [String: [Int]] {
        struct Visitor {
            var firstMs = Int64.max
            var cell = ""
            var views = 0, selections = 0, long = 0, short = 0, stream = 0, error = 0, plays = 0
        }
        var visitors: [String: Visitor] = [:]
        for event in events {
            guard let visitor = event.visitor else { continue }
            let ms = ReportTimestamp.milliseconds(event.timestamp)
            for (key, group) in event.properties where key.hasPrefix("experiment.") {
                let experiment = String(key.dropFirst("experiment.".count))
                var entry = visitors["\(experiment)|\(visitor)"] ?? Visitor()
                if ms < entry.firstMs {
                    let device = ["phone": 1, "tablet": 2, "desktop": 3][event.properties["device"] ?? ""] ?? 0
                    let cohort = ["new": 1, "returning": 2][event.properties["cohort"] ?? ""] ?? 0
                    let day = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
                    entry.firstMs = ms
                    entry.cell = "\(experiment)|\(group)|\(device * 3 + cohort)|\(day)"
                }
                switch event.name {
                case .launch: entry.views += 1
                case .longSelected: entry.long += 1
                case .shortSelected: entry.short += 1
                case .streamSelected: entry.stream += 1
                case .errorShown: entry.error += 1
                case .playStarted: entry.plays += 1
                default: break
                }
                entry.selections = entry.long + entry.short + entry.stream
                visitors["\(experiment)|\(visitor)"] = entry
            }
        }
        var cells: [String: [Int]] = [:]
        for visitor in visitors.values {
            let v = visitor.views, s = visitor.selections
            let own = [1, s > 0 ? 1 : 0, visitor.long > 0 ? 1 : 0, visitor.short > 0 ? 1 : 0, visitor.stream > 0 ? 1 : 0,
                       s, s * s, v, v * v, v * s, visitor.error > 0 ? 1 : 0, visitor.plays > 0 ? 1 : 0, visitor.plays,
                       visitor.plays * visitor.plays]
            cells[visitor.cell] = zip(cells[visitor.cell] ?? Array(repeating: 0, count: own.count), own).map { $0 + $1 }
        }
        return cells
    }

    /// The database's cells, those left empty by a visitor who moved out of them left out.
    static func stored(_ postgres: TestDatabase) throws -> [String: [Int]] {
        let text = try postgres.psql("""
            SELECT experiment || '|' || grp || '|' || segment || '|' || day || '|' || concat_ws(',', \(columns.joined(separator: ", ")))
            FROM report_experiment_sums
            """)
        var cells: [String: [Int]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false)
            let sums = parts[4].split(separator: ",").map { Int($0) ?? -1 }
            if sums.allSatisfy({ $0 == 0 }) { continue }
            cells[parts[0...3].joined(separator: "|")] = sums
        }
        return cells
    }

    /// Ships `events` from a log of their own as `instance`, in batches of 400; then, if this
    /// instance folds, waits until no visitor changes wait to be folded.
    static func ship(_ events: [ReportEvent], instance: String, into postgres: TestDatabase, _ directory: TemporaryDirectory,
                     foldInterval: Double? = 0.2) throws -> ReportShipper
    {
        try ReportLog.write(events, to: directory.path(instance), segmentBytes: 64 * 1024)
        var shipping = ShipperConfiguration(databaseURL: postgres.url, instance: instance, reportLog: directory.path(instance))
        shipping.pollInterval = 0.05
        shipping.batchLines = 400
        shipping.foldInterval = foldInterval
        let shipper = ReportShipper(configuration: shipping, logger: Logger(label: "test"))
        try shipper.start()
        try eventually("\(shipper.status.shippedEvents) of \(events.count) shipped", timeout: 60) {
            shipper.status.shippedEvents == events.count
        }
        if foldInterval != nil { try waitUntilFolded(postgres) }
        shipper.shutdown()
        return shipper
    }

    /// Waits until no shipped visitor changes wait to be folded.
    static func waitUntilFolded(_ postgres: TestDatabase) throws {
        try eventually("visitor changes folded", timeout: 60) {
            (try? postgres.psql("SELECT count(*) FROM report_visitor_changes")) == "0"
        }
    }

    @Test func batchesThatUpdateStoredVisitorsKeepEveryCellsSumsAndSquaresExact() throws {
        let directory = try TemporaryDirectory("experiment-visitor-rows")
        defer { directory.remove() }
        let postgres = try TestDatabase()
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Self.dayMs * Self.dayMs
        // 6,000 events of 300 visitors in batches of 400: from the second batch on, nearly every
        // visitor in a batch already has a row.
        let first = Self.events(6000, visitors: 0..<300, startMs: today - Self.dayMs, parity: 0, seed: 11)
        let shipper = try Self.ship(first, instance: "a:1", into: postgres, directory)
        #expect(shipper.status.batches >= 15)
        // Folded several batches at a time (a visitor's lines merged before their row is written).
        #expect(shipper.status.foldedBatches == shipper.status.batches && shipper.status.visitorFolds < shipper.status.batches)
        #expect(try Self.stored(postgres) == Self.recompute(first))
        #expect(try postgres.psql("SELECT count(*) FROM report_experiment_visitors WHERE experiment = 'rows-test'") == "300")

        // A second instance's events, a day earlier, for half of those visitors and 100 new ones:
        // the earlier exposure moves a visitor's whole sums to the cell it names.
        let second = Self.events(2000, visitors: 150..<400, startMs: today - 2 * Self.dayMs, parity: 1, seed: 12)
        _ = try Self.ship(second, instance: "b:1", into: postgres, directory)
        let expected = Self.recompute(first + second)
        let stored = try Self.stored(postgres)
        #expect(stored == expected, "cells differing: \(Set(stored.keys).union(expected.keys).filter { stored[$0] != expected[$0] }.sorted().prefix(5))")
        #expect(try postgres.psql("SELECT count(*) FROM report_experiment_visitors WHERE experiment = 'rows-test'") == "400")
    }
}
