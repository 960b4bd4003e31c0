#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of the catalogue: a film or episode, a short clip or a live stream.
public struct ContentItem: Sendable, Hashable, Identifiable {
    /// The three kinds of content, spelled as in `content.json`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case long, short, live
    }

    /// How long the item runs or when the stream starts; the case decides the kind.
    public enum Timing: Sendable, Hashable {
        case minutes(Int)
        case seconds(Int)
        case startsAt(Date)
    }

    /// Stable, URL-safe identifier, e.g. `m-017`.
    public let id: String
    /// Display title, plain text (escape it when rendering).
    public let title: String
    /// One or two sentences, plain text.
    public let description: String
    /// Poster path relative to `Public/`, e.g. `images/posters/m-017.svg`.
    public let image: String
    /// Duration for films and clips, start time for live streams.
    public let timing: Timing

    /// Creates an item; `kind` follows from `timing`.
    public init(id: String, title: String, description: String, image: String, timing: Timing) {
        self.id = id
        self.title = title
        self.description = description
        self.image = image
        self.timing = timing
    }

    /// The kind implied by the timing.
    public var kind: Kind {
        switch timing {
        case .minutes: .long
        case .seconds: .short
        case .startsAt: .live
        }
    }

    /// Running time in minutes of a `long` item.
    public var durationMinutes: Int? {
        if case .minutes(let minutes) = timing { minutes } else { nil }
    }

    /// Running time in seconds of a `short` item.
    public var durationSeconds: Int? {
        if case .seconds(let seconds) = timing { seconds } else { nil }
    }

    /// Start time of a `live` item.
    public var startsAt: Date? {
        if case .startsAt(let date) = timing { date } else { nil }
    }
}
