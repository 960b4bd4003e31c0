import Reporting

extension DatabaseReports {
    /// Every instance's experiment visitors, exactly: the sums per group, segment and day of first
    /// exposure (`report_experiment_sums`, kept by the shippers), as the local tallies give them
    /// for the union of the instances' logs. Groups in name order. A few rows per experiment and
    /// day, however many visitors.
    public func experimentVisitors() throws -> [String: ExperimentVisitors] {
        let columns = ExperimentVisitorRows.sumColumns.joined(separator: ", ")
        let result = try withConnection { connection in
            try connection.query("SELECT experiment, grp, segment, day, \(columns) FROM report_experiment_sums ORDER BY experiment, grp")
        }
        var byExperiment: [String: (groups: [String], cells: [Int32: [VisitorSums]])] = [:]
        for row in result.rows {
            guard let experiment = row[0], let group = row[1], let segment = row[2].flatMap({ Int($0) }),
                  let day = row[3].flatMap({ Int32($0) }) else { continue }
            var sums = VisitorSums()
            for field in 0..<VisitorSums.fieldCount { sums[field: field] = row[4 + field].flatMap { Int($0) } ?? 0 }
            var entry = byExperiment[experiment] ?? ([], [:])
            if !entry.groups.contains(group) { entry.groups.append(group) }
            let index = entry.groups.firstIndex(of: group)!
            if entry.cells[day] == nil || entry.cells[day]!.count <= index * VisitorSegment.count {
                entry.cells[day, default: []] += [VisitorSums](repeating: VisitorSums(),
                    count: (index + 1) * VisitorSegment.count - (entry.cells[day]?.count ?? 0))
            }
            entry.cells[day]![index * VisitorSegment.count + segment % VisitorSegment.count].add(sums)
            byExperiment[experiment] = entry
        }
        var out: [String: ExperimentVisitors] = [:]
        for (name, entry) in byExperiment {
            var whole = [VisitorSums](repeating: VisitorSums(), count: entry.groups.count)
            for row in entry.cells.values {
                for (index, cell) in row.enumerated() { whole[index / VisitorSegment.count].add(cell) }
            }
            out[name] = ExperimentVisitors(name: name, groups: zip(entry.groups, whole).map { ($0, $1) }, cells: entry.cells)
        }
        return out
    }
}
