import Foundation
import Reporting

extension SharedReports {
    /// Every instance's experiment figures over `range` (by whole minutes, as the local store counts
    /// them): per experiment and group the home views by layout, selections, distinct visitors
    /// (exact here) and a per-day series. An event names its groups as `experiment.<name>`
    /// properties, or as the legacy `experiment` and `group` pair; both are read as the rollups do.
    public func experiments(_ range: ReportRange = ReportRange()) throws -> [ReportExperimentCounts] {
        let minute: (Date) -> String = { date in
            let ms = ReportTimestamp.milliseconds(date)
            return ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: ms - ((ms % 60_000) + 60_000) % 60_000))
        }
        let rows = try withConnection { connection in
            try connection.query(Self.experimentsSQL, [range.from.map(minute), range.to.map(minute)])
        }
        let selections: Set<String> = [ReportEvent.Name.longSelected.rawValue, ReportEvent.Name.shortSelected.rawValue,
                                       ReportEvent.Name.streamSelected.rawValue]
        var groups: [String: [String: ReportGroupCounts]] = [:]
        for row in rows.rows {
            guard let experiment = row[0], let group = row[1], let count = row[6].flatMap({ Int($0) }) else { continue }
            var counts = groups[experiment]?[group]
                ?? ReportGroupCounts(group: group, layouts: [:], views: 0, selections: 0, visitors: 0, days: [])
            if row[2] == nil {
                counts.visitors = Int(row[5] ?? "") ?? 0
            } else if let name = row[2], let day = row[4].flatMap({ ReportTimestamp.parse($0 + "T00:00:00.000Z") }) {
                let isView = name == ReportEvent.Name.launch.rawValue
                guard isView || selections.contains(name) else { continue }
                if isView {
                    counts.views += count
                    if let layout = row[3], !layout.isEmpty { counts.layouts[layout, default: 0] += count }
                } else {
                    counts.selections += count
                }
                if counts.days.last?.day != day { counts.days.append((day, 0, 0)) }
                if isView { counts.days[counts.days.count - 1].views += count } else { counts.days[counts.days.count - 1].selections += count }
            }
            groups[experiment, default: [:]][group] = counts
        }
        return groups.sorted { $0.key < $1.key }.map { name, byGroup in
            ReportExperimentCounts(name: name, groups: byGroup.values.sorted { $0.group < $1.group })
        }
    }

    /// One row per (experiment, group, name, layout, day) with its events, and one per (experiment,
    /// group) with its distinct visitors (name NULL); ordered by day so the series is built in order.
    static let experimentsSQL = """
        WITH ranged AS (
            SELECT name, coalesce(layout, '') AS layout, visitor, properties,
                   to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM report_events
            WHERE ($1::timestamptz IS NULL OR time >= $1) AND ($2::timestamptz IS NULL OR time < $2)
        ), tagged AS (
            SELECT r.name, r.layout, r.visitor, r.day, substr(p.key, 12) AS experiment, p.value AS grp
            FROM ranged r, jsonb_each_text(r.properties) p WHERE p.key LIKE 'experiment.%' AND length(p.key) > 11
            UNION ALL
            SELECT name, layout, visitor, day, properties->>'experiment', properties->>'group' FROM ranged
            WHERE properties ? 'experiment' AND properties ? 'group'
              AND NOT properties ? ('experiment.' || (properties->>'experiment'))
        )
        SELECT experiment, grp, name, layout, day, count(DISTINCT visitor), count(*)
        FROM tagged
        GROUP BY GROUPING SETS ((experiment, grp, name, layout, day), (experiment, grp))
        ORDER BY day NULLS FIRST
        """
}
