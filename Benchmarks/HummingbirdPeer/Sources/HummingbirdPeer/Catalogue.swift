import Foundation

/// The content file, in the schema dynamic-home reads:
/// `{"version":1,"items":[{id, kind, title, description, image, durationMinutes|durationSeconds|startsAt}]}`.
struct Catalogue: Decodable, Sendable {
    let version: Int
    let items: [Item]

    static func load(contentsOf path: String) throws -> Catalogue {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an ISO-8601 UTC time: \(text)"))
        }
        let catalogue = try decoder.decode(Catalogue.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        guard catalogue.version == 1 else { throw CatalogueError("\(path): version must be 1") }
        for item in catalogue.items where item.timing == nil {
            throw CatalogueError("\(path): item \(item.id) has no \(item.kind.timingField)")
        }
        return catalogue
    }
}

struct CatalogueError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One film, clip or live stream.
struct Item: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable {
        case long, short, live

        /// The grid's row heading for this kind.
        var sectionTitle: String {
            switch self {
            case .long: "Films & series"
            case .short: "Short clips"
            case .live: "Live"
            }
        }

        var timingField: String {
            switch self {
            case .long: "durationMinutes"
            case .short: "durationSeconds"
            case .live: "startsAt"
            }
        }
    }

    enum Timing: Sendable, Equatable {
        case minutes(Int), seconds(Int), startsAt(Date)
    }

    let id: String
    let kind: Kind
    let title: String
    let description: String
    let image: String
    let durationMinutes: Int?
    let durationSeconds: Int?
    let startsAt: Date?

    var timing: Timing? {
        switch kind {
        case .long: durationMinutes.map(Timing.minutes)
        case .short: durationSeconds.map(Timing.seconds)
        case .live: startsAt.map(Timing.startsAt)
        }
    }
}

/// The tile's meta line, worded as dynamic-home words it (ContentItem+Display.swift).
extension Item {
    func isLive(at now: Date) -> Bool {
        guard kind == .live, let startsAt else { return false }
        return startsAt <= now
    }

    /// "1 h 52 min" for films, "3:45" for clips, "Live now" / "Starts 20:30 UTC" /
    /// "Starts Sun 22 Nov, 07:30 UTC" for live streams.
    func meta(now: Date) -> String {
        switch timing {
        case .minutes(let minutes):
            let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
            if hours == 0 { return "\(rest) min" }
            return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
        case .seconds(let seconds):
            let (minutes, secs) = seconds.quotientAndRemainder(dividingBy: 60)
            let (hours, mins) = minutes.quotientAndRemainder(dividingBy: 60)
            return hours > 0 ? "\(hours):\(twoDigits(mins)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
        case .startsAt(let startsAt):
            return Self.schedule(startsAt, now: now)
        case nil:
            return ""
        }
    }

    private static func schedule(_ startsAt: Date, now: Date) -> String {
        if startsAt <= now { return "Live now" }
        let start = utc.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: startsAt)
        let today = utc.dateComponents([.year, .month, .day], from: now)
        let time = "\(twoDigits(start.hour ?? 0)):\(twoDigits(start.minute ?? 0)) UTC"
        if start.year == today.year, start.month == today.month, start.day == today.day {
            return "Starts \(time)"
        }
        let weekday = weekdays[((start.weekday ?? 1) - 1) % 7]
        let month = months[((start.month ?? 1) - 1) % 12]
        let year = start.year == today.year ? "" : " \(start.year ?? 0)"
        return "Starts \(weekday) \(start.day ?? 1) \(month)\(year), \(time)"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}
