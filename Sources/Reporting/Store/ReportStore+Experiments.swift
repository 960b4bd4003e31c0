#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReportStore {
    /// Per experiment and group over `range`: home views by layout shown, views, selections,
    /// distinct visitors and a per-day series, from the rollups. Sorted by name and group.
    public func experiments(_ range: ReportRange = ReportRange()) -> [ReportExperimentCounts] {
        let segments = segments(in: range)
        guard let firstSegment = segments.first, let lastSegment = segments.last else { return [] }
        let names = catalog.interner.names
        let launch = catalog.interner.existingID(ReportEvent.Name.launch.rawValue)
        let selections = Set(
            [ReportEvent.Name.longSelected, .shortSelected, .streamSelected].compactMap { catalog.interner.existingID($0.rawValue) })
        let firstMinute = range.fromMinute ?? ReportTimestamp.floorDiv(firstSegment.rollup.firstMs, 60_000)
        let endMinute = range.toMinute ?? ReportTimestamp.floorDiv(lastSegment.rollup.lastMs, 60_000) + 1
        let from = Int32(clamping: firstMinute)
        let to = Int32(clamping: endMinute)

        struct Group {
            var layouts: [UInt32: Int] = [:]
            var views = 0
            var selections = 0
            var days: [Int64: (views: Int, selections: Int)] = [:]
            var seen = false

            mutating func add(views count: Int, layout: UInt32, day: Int64) {
                seen = true
                views += count
                layouts[layout, default: 0] += count
                days[day, default: (0, 0)].views += count
            }

            mutating func add(selections count: Int, day: Int64) {
                seen = true
                self.selections += count
                days[day, default: (0, 0)].selections += count
            }
        }
        var groups: [SketchKey: Group] = [:]
        // Whole days from the day rows, whole hours from the hour rows: the series is per day.
        for segment in segments {
            segment.forEachGroup(from: from, to: to, grain: 1440, minutes: { fullGroups(segment) }) { key, count in
                let id = SketchKey(hour: 0, experiment: key.experiment, group: key.group)
                let day = ReportTimestamp.floorDiv(Int64(key.minute), 1440)
                if key.event == launch {
                    groups[id, default: Group()].add(views: count, layout: key.layout, day: day)
                } else if selections.contains(key.event) {
                    groups[id, default: Group()].add(selections: count, day: day)
                } else {
                    groups[id, default: Group()].seen = true
                }
            }
        }
        var byExperiment: [String: [ReportGroupCounts]] = [:]
        for (id, group) in groups {
            let counts = ReportGroupCounts(
                group: names[Int(id.group)],
                layouts: Dictionary(uniqueKeysWithValues: group.layouts.filter { $0.key != 0 }.map { (names[Int($0.key)], $0.value) }),
                views: group.views, selections: group.selections,
                visitors: visitorEstimate(firstMinute: firstMinute, endMinute: endMinute, experiment: id.experiment, group: id.group),
                days: group.days.sorted { $0.key < $1.key }.map {
                    (ReportTimestamp.date(milliseconds: $0.key * ReportTimestamp.msPerDay), $0.value.views, $0.value.selections)
                })
            byExperiment[names[Int(id.experiment)], default: []].append(counts)
        }
        return byExperiment.sorted { $0.key < $1.key }.map { name, groups in
            ReportExperimentCounts(name: name, groups: groups.sorted { $0.group < $1.group })
        }
    }
}
