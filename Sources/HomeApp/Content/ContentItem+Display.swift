#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Human-readable timing, formatted the same on every server (UTC, English, no locale lookup).
extension ContentItem {
    /// "1 h 52 min" for films, "3:45" for clips, nil for live streams.
    public var durationText: String? {
        switch timing {
        case .minutes(let minutes):
            let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
            if hours == 0 { return "\(rest) min" }
            return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
        case .seconds(let seconds):
            let (minutes, secs) = seconds.quotientAndRemainder(dividingBy: 60)
            let (hours, mins) = minutes.quotientAndRemainder(dividingBy: 60)
            return hours > 0 ? "\(hours):\(twoDigits(mins)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
        case .startsAt:
            return nil
        }
    }

    /// Whether this is a live stream that has started by `now`.
    public func isLive(at now: Date = Date()) -> Bool {
        guard let startsAt else { return false }
        return startsAt <= now
    }

    /// "Live now", "Starts 20:30 UTC" (today), "Starts Sun 22 Nov, 07:30 UTC"; nil unless live.
    public func scheduleText(now: Date = Date()) -> String? {
        guard let startsAt else { return nil }
        if startsAt <= now { return "Live now" }
        let start = Self.utc.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: startsAt)
        let today = Self.utc.dateComponents([.year, .month, .day], from: now)
        let time = "\(twoDigits(start.hour ?? 0)):\(twoDigits(start.minute ?? 0)) UTC"
        if start.year == today.year, start.month == today.month, start.day == today.day {
            return "Starts \(time)"
        }
        let weekday = Self.weekdays[((start.weekday ?? 1) - 1) % 7]
        let month = Self.months[((start.month ?? 1) - 1) % 12]
        let year = start.year == today.year ? "" : " \(start.year ?? 0)"
        return "Starts \(weekday) \(start.day ?? 1) \(month)\(year), \(time)"
    }

    /// The one timing line a view shows: duration for films and clips, schedule for live streams.
    public func timingText(now: Date = Date()) -> String {
        durationText ?? scheduleText(now: now) ?? ""
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}
