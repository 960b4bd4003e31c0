import HomeTemplates

/// The visitor's rows, from their `ViewingActivity`: Continue watching (started and not finished,
/// newest first, with where they stopped) and My List (in the order added). Titles taken off the
/// catalogue are left out; a row with no titles is not given.
enum ViewingRows {
    /// Titles a row shows at most.
    static let limit = 10

    static func make(_ activity: ViewingActivity, catalog: ContentCatalog, assetURLs: [String: String]) -> [HomeRow] {
        func entry(_ id: String, progress: ViewingActivity.Progress? = nil) -> HomeRow.Entry? {
            guard let item = catalog.item(id: id) else { return nil }
            let bar = progress.map {
                (Int(($0.fraction * 100).rounded()), "Watched \(WatchScreenModel.clock($0.position)) of \(WatchScreenModel.clock($0.duration))")
            }
            return HomeRow.Entry(item: item, url: "/\(ItemRequest.Scene(item.kind).rawValue)/\(item.id)",
                                 imageURL: assetURLs[item.imageURL] ?? item.imageURL, progress: bar)
        }
        let watching = activity.inProgress.lazy.compactMap { entry($0.item, progress: $0) }.prefix(limit)
        let listed = activity.myList.lazy.compactMap { entry($0) }.prefix(limit)
        return [HomeRow(name: "continue-watching", title: "Continue watching", entries: Array(watching)),
                HomeRow(name: "my-list", title: "My List", entries: Array(listed))].filter { !$0.entries.isEmpty }
    }
}
