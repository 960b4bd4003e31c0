import Foundation
import Reporting

/// Experiment counts by reading the whole report log: the interim source until the report store's
/// rollups answer `experiments(_:)` without a scan.
struct ExperimentLogScan: ExperimentCounting {
    static let selections: Set<ReportEvent.Name> = [.longSelected, .shortSelected, .streamSelected]
    let reader: ReportReader

    private struct Tally {
        var layouts: [String: Int] = [:]
        var views = 0, selections = 0
        var visitors: Set<String> = []
        var days: [Int64: (views: Int, selections: Int)] = [:]
    }

    func experiments(_ range: ReportRange) throws -> [ReportExperimentCounts] {
        var tallies: [String: [String: Tally]] = [:]
        try reader.forEachEvent(matching: ReportFilter(since: range.from)) { event in
            guard range.contains(event.timestamp) else { return }
            let isView = event.name == .launch, isSelection = Self.selections.contains(event.name)
            for (experiment, group) in Self.groups(of: event) {
                var tally = tallies[experiment, default: [:]][group, default: Tally()]
                if let visitor = event.visitor { tally.visitors.insert(visitor) }
                let day = Int64((event.timestamp.timeIntervalSince1970 / 86_400).rounded(.down))
                if isView {
                    tally.views += 1
                    tally.layouts[event.layout ?? "", default: 0] += 1
                    tally.days[day, default: (0, 0)].views += 1
                } else if isSelection {
                    tally.selections += 1
                    tally.days[day, default: (0, 0)].selections += 1
                }
                tallies[experiment, default: [:]][group] = tally
            }
        }
        return tallies.keys.sorted().map { name in
            ReportExperimentCounts(name: name, groups: tallies[name]!.sorted { $0.key < $1.key }.map { group, tally in
                ReportGroupCounts(
                    group: group, layouts: tally.layouts, views: tally.views, selections: tally.selections,
                    visitors: tally.visitors.count,
                    days: tally.days.keys.sorted().map { day in
                        (Date(timeIntervalSince1970: Double(day) * 86_400), tally.days[day]!.views, tally.days[day]!.selections)
                    })
            })
        }
    }

    /// The experiment → group tags of an event: `experiment.<name>` properties, and the older
    /// `experiment` and `group` pair read as one of them.
    static func groups(of event: ReportEvent) -> [(String, String)] {
        var groups: [(String, String)] = []
        for (key, value) in event.properties where key.hasPrefix("experiment.") && key.count > "experiment.".count {
            groups.append((String(key.dropFirst("experiment.".count)), value))
        }
        if let name = event.properties["experiment"], let group = event.properties["group"],
           event.properties["experiment." + name] == nil {
            groups.append((name, group))
        }
        return groups
    }
}
