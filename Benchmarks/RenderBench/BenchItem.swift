import HomeLayouts

/// A catalogue entry for the grid benchmark, with text that needs escaping.
struct BenchItem: HomeItem {
    let identifier: String
    let title: String
    let summary: String
    let category: HomeItemKind
    let imageURL: String
    let detail: String
    let isLiveNow: Bool

    static func catalogue(count: Int) -> [any HomeItem] {
        (0..<count).map { index in
            let kind = HomeItemKind.allCases[index % 3]
            return BenchItem(identifier: "\(kind.rawValue.prefix(1))-\(index)",
                             title: "Title \(index): Salt & Iron's \"Low Tide\"",
                             summary: "A story of harbours, herring & <storms>, told over one long winter night.",
                             category: kind, imageURL: "/assets/images/posters/m-001.svg",
                             detail: kind == .live ? "Live now" : "1 h 52 min", isLiveNow: kind == .live)
        }
    }
}
