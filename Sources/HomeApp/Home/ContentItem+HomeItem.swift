import HomeLayouts

/// Catalogue entries are what the home layouts draw.
extension ContentItem: HomeItem {
    public var identifier: String { id }
    public var summary: String { description }
    public var imageURL: String { "/assets/" + image }
    public var detail: String { timingText() }
    public var isLiveNow: Bool { isLive() }

    public var category: HomeItemKind {
        switch timing {
        case .minutes: .long
        case .seconds: .short
        case .startsAt: .live
        }
    }
}
