import Reporting

/// Which sketches cover a range's hours: the local store merges every hour the range touches;
/// the database has day sketches too, so whole UTC days are read as one row each and only the
/// hours before the first whole day and after the last as hours. Bounds in ms, ends exclusive;
/// nil for an open end.
struct SketchSpans: Equatable {
    struct Span: Equatable {
        let from: Int64?
        let to: Int64?
    }

    /// Whole days, if any; an open end reaches every day on that side.
    private(set) var days: Span?
    /// Hours before the first whole day, and after the last.
    private(set) var before: Span?
    private(set) var after: Span?

    init(fromMinute: Int64?, toMinute: Int64?) {
        let hour: Int64 = 3_600_000
        let day = ReportTimestamp.msPerDay
        // The hours the range touches: [firstHour, endHour).
        let firstHour = fromMinute.map { ReportTimestamp.floorDiv($0, 60) * hour }
        let endHour = toMinute.map { (ReportTimestamp.floorDiv($0 - 1, 60) + 1) * hour }
        let firstDay = firstHour.map { -ReportTimestamp.floorDiv(-$0, day) * day }
        let endDay = endHour.map { ReportTimestamp.floorDiv($0, day) * day }
        if let firstDay, let endDay, firstDay >= endDay {
            before = Span(from: firstHour, to: endHour)
            return
        }
        days = Span(from: firstDay, to: endDay)
        if let firstHour, let firstDay, firstHour < firstDay { before = Span(from: firstHour, to: firstDay) }
        if let endHour, let endDay, endDay < endHour { after = Span(from: endDay, to: endHour) }
    }
}
