#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

extension DatabaseReports {
    /// Every instance's experiment figures over `range`, from the experiment rollups and by the
    /// local store's rules: counts by whole minutes; per experiment and group the home views by
    /// layout, selections, a per-day series, and distinct visitors from the HyperLogLog sketches
    /// of the hours the range touches. Whole days and hours are read as one row each.
    public func experiments(_ range: ReportRange = ReportRange()) throws -> [ReportExperimentCounts] {
        let minute = RangeCover.Unit.minute.ms, hour = RangeCover.Unit.hour
        let countCover = RangeCover(from: range.fromMinute.map { $0 * minute }, to: range.toMinute.map { $0 * minute },
                                    units: RangeCover.Unit.allCases[...])
        let sketchCover = RangeCover(
            from: range.fromMinute.map { hour.floor($0 * minute) },
            to: range.toMinute.map { hour.ceil($0 * minute) },
            units: [.hour, .day])
        let (counts, sketches) = try withConnection { connection in
            let countCondition = countCover.condition(first: 1)
            let sketchCondition = sketchCover.condition(first: 1)
            return (try connection.query(Self.countsSQL(countCondition.sql), countCondition.parameters),
                    try connection.query(Self.sketchesSQL(sketchCondition.sql), sketchCondition.parameters))
        }
        let launch = ReportEvent.Name.launch.rawValue
        let selections: Set<String> = [ReportEvent.Name.longSelected.rawValue, ReportEvent.Name.shortSelected.rawValue,
                                       ReportEvent.Name.streamSelected.rawValue]
        struct Key: Hashable { let experiment: String, group: String }
        var groups: [Key: ReportGroupCounts] = [:]
        for row in counts.rows {
            guard let experiment = row[0], let group = row[1], let name = row[2], let count = row[5].flatMap({ Int($0) }),
                  let day = row[4].flatMap({ ReportTimestamp.parse($0 + "T00:00:00.000Z") })
            else { continue }
            let key = Key(experiment: experiment, group: group)
            var figures = groups[key] ?? ReportGroupCounts(group: group, layouts: [:], views: 0, selections: 0, visitors: 0, days: [])
            defer { groups[key] = figures }
            let isView = name == launch
            guard isView || selections.contains(name) else { continue }
            if figures.days.last?.day != day { figures.days.append((day, 0, 0)) }
            if isView {
                figures.views += count
                if let layout = row[3], !layout.isEmpty { figures.layouts[layout, default: 0] += count }
                figures.days[figures.days.count - 1].views += count
            } else {
                figures.selections += count
                figures.days[figures.days.count - 1].selections += count
            }
        }
        var merged: [Key: HyperLogLog] = [:]
        for row in sketches.rows {
            guard let experiment = row[0], let group = row[1], let sketch = row[2].flatMap(ExperimentFigures.sketch(hex:)) else { continue }
            merged[Key(experiment: experiment, group: group), default: HyperLogLog()].merge(sketch)
        }
        for (key, sketch) in merged where groups[key] != nil { groups[key]?.visitors = sketch.estimate }
        return Dictionary(grouping: groups, by: { $0.key.experiment }).sorted { $0.key < $1.key }.map { name, byGroup in
            ReportExperimentCounts(name: name, groups: byGroup.map(\.value).sorted { $0.group < $1.group })
        }
    }

    /// One row per (experiment, group, name, layout, day) with its events, oldest day first.
    static func countsSQL(_ condition: String) -> String {
        """
        SELECT experiment, grp, name, layout, to_char(day, 'YYYY-MM-DD') AS day, sum(events)::bigint AS events
        FROM (SELECT experiment, grp, name, layout, date_trunc('day', start AT TIME ZONE 'UTC') AS day, events
              FROM report_experiment_counts WHERE \(condition)) c
        GROUP BY experiment, grp, name, layout, day
        ORDER BY day
        """
    }

    static func sketchesSQL(_ condition: String) -> String {
        "SELECT experiment, grp, encode(registers, 'hex') AS registers FROM report_experiment_sketches WHERE \(condition)"
    }
}
