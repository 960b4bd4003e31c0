import Reporting

/// The rollup rows that cover a time range exactly, coarsest first: a range of minutes is read as
/// whole days where whole days fit, whole hours beside them, and minutes only at its ragged ends,
/// so a week costs seven day rows and at most 46 hour and 118 minute rows per key. Bounds in ms,
/// ends exclusive, nil for an open end.
struct RangeCover: Equatable {
    enum Unit: String, CaseIterable {
        case minute, hour, day

        var ms: Int64 {
            switch self {
            case .minute: 60_000
            case .hour: 3_600_000
            case .day: ReportTimestamp.msPerDay
            }
        }

        /// The start of the unit holding `ms`, and of the first unit starting at or after it.
        func floor(_ ms: Int64) -> Int64 { ReportTimestamp.floorDiv(ms, self.ms) * self.ms }
        func ceil(_ ms: Int64) -> Int64 { -floor(-ms) }
    }

    struct Piece: Equatable {
        let unit: Unit
        let from: Int64?
        let to: Int64?
    }

    let pieces: [Piece]

    /// `from` and `to` must be whole `units[0]`s; `units` from finest to coarsest.
    init(from: Int64?, to: Int64?, units: ArraySlice<Unit>) {
        pieces = Self.cover(from: from, to: to, units: units)
    }

    private static func cover(from: Int64?, to: Int64?, units: ArraySlice<Unit>) -> [Piece] {
        guard let unit = units.first else { return [] }
        guard let coarser = units.dropFirst().first else { return [Piece(unit: unit, from: from, to: to)] }
        let start = from.map(coarser.ceil)
        let end = to.map(coarser.floor)
        if let start, let end, start >= end { return [Piece(unit: unit, from: from, to: to)] }
        var pieces: [Piece] = []
        if let from, let start, from < start { pieces.append(Piece(unit: unit, from: from, to: start)) }
        pieces += cover(from: start, to: end, units: units.dropFirst())
        if let to, let end, end < to { pieces.append(Piece(unit: unit, from: end, to: to)) }
        return pieces
    }

    /// A SQL condition on `span` and `start` matching the pieces, its parameters numbered from
    /// `first`, and those parameters.
    func condition(first: Int) -> (sql: String, parameters: [String?]) {
        var parameters: [String?] = []
        let stamp: (Int64?) -> String? = { $0.map { ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: $0)) } }
        let clauses = pieces.map { piece in
            let at = first + parameters.count
            parameters += [piece.unit.rawValue, stamp(piece.from), stamp(piece.to)]
            return "(span = $\(at) AND ($\(at + 1)::timestamptz IS NULL OR start >= $\(at + 1)) "
                + "AND ($\(at + 2)::timestamptz IS NULL OR start < $\(at + 2)))"
        }
        return (clauses.isEmpty ? "false" : clauses.joined(separator: " OR "), parameters)
    }
}
