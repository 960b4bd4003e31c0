/// What a home layout draws for one entry. The app's own model conforms; children never see more.
public protocol HomeItem: Sendable {
    var identifier: String { get }
    var title: String { get }
    var summary: String { get }
    /// Which section the item belongs in.
    var category: HomeItemKind { get }
    /// A relative or http(s) URL of the 16:9 poster.
    var imageURL: String { get }
    /// Duration or start time, as a person reads it ("1 h 52 min", "Live now").
    var detail: String { get }
    /// Whether a live stream is on the air now.
    var isLiveNow: Bool { get }
}

/// The three kinds of item a streaming app's home shows.
public enum HomeItemKind: String, Sendable, CaseIterable {
    case long, short, live

    /// The heading of a section of this kind.
    public var sectionTitle: String {
        switch self {
        case .long: "Films & series"
        case .short: "Short clips"
        case .live: "Live"
        }
    }
}
