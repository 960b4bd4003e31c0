import Foundation
import Reporting

extension SharedReports {
    /// Every instance's experiment figures over `range`, from the experiment rollups and by the
    /// local store's rules: counts by whole minutes; per experiment and group the home views by
    /// layout, selections, a per-day series, and distinct visitors from the HyperLogLog sketches
    /// of the range's whole hours (days where whole days fit).
    public func experiments(_ range: ReportRange = ReportRange()) throws -> [ReportExperimentCounts] {
        let stamp: (Int64?) -> String? = { $0.map { ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: $0)) } }
        let spans = SketchSpans(fromMinute: range.fromMinute, toMinute: range.toMinute)
        let (counts, sketches) = try withConnection { connection in
            let counts = try connection.query(Self.countsSQL, [stamp(range.fromMinute.map { $0 * 60_000 }),
                                                               stamp(range.toMinute.map { $0 * 60_000 })])
            let sketches = try connection.query(Self.sketchesSQL, [
                spans.days == nil ? "false" : "true", stamp(spans.days?.from), stamp(spans.days?.to),
                stamp(spans.before?.from), stamp(spans.before?.to), stamp(spans.after?.from), stamp(spans.after?.to),
            ])
            return (counts, sketches)
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
            guard let experiment = row[0], let group = row[1], let sketch = row[2].flatMap(ExperimentTally.sketch(hex:)) else { continue }
            merged[Key(experiment: experiment, group: group), default: HyperLogLog()].merge(sketch)
        }
        for (key, sketch) in merged where groups[key] != nil { groups[key]?.visitors = sketch.estimate }
        return Dictionary(grouping: groups, by: { $0.key.experiment }).sorted { $0.key < $1.key }.map { name, byGroup in
            ReportExperimentCounts(name: name, groups: byGroup.map(\.value).sorted { $0.group < $1.group })
        }
    }

    /// One row per (experiment, group, name, layout, day) with its events, oldest day first.
    static let countsSQL = """
        SELECT experiment, grp, name, layout, to_char(day, 'YYYY-MM-DD') AS day, sum(events)::bigint AS events
        FROM (SELECT experiment, grp, name, layout, date_trunc('day', minute AT TIME ZONE 'UTC') AS day, events
              FROM report_experiment_minutes
              WHERE ($1::timestamptz IS NULL OR minute >= $1) AND ($2::timestamptz IS NULL OR minute < $2)) m
        GROUP BY experiment, grp, name, layout, day
        ORDER BY day
        """

    /// The sketches of the whole days in the range and of the hours before and after them.
    static let sketchesSQL = """
        SELECT experiment, grp, encode(registers, 'hex') AS registers FROM report_experiment_sketches
        WHERE (span = 'day' AND $1::boolean AND ($2::timestamptz IS NULL OR start >= $2)
                                             AND ($3::timestamptz IS NULL OR start < $3))
           OR (span = 'hour' AND start >= $4::timestamptz AND start < $5::timestamptz)
           OR (span = 'hour' AND start >= $6::timestamptz AND start < $7::timestamptz)
        """
}
