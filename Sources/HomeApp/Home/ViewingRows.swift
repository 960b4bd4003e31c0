import HomeLayouts

/// The rows over the catalogue's sections. The visitor's own, from their `ViewingActivity`:
/// Continue watching (started and not finished, newest first, with where they stopped), My List
/// (the latest added first, so a title just added shows however long the list), Because you watched (the titles most started by those who started the
/// visitor's latest, but those they finished). Everyone's: Trending now. Titles taken off the
/// catalogue are left out; a row with no titles is not given.
enum ViewingRows {
    /// Titles a row shows at most.
    static let limit = 10
    /// Trending now's name, as the toggles switch it.
    static let trending = "trending"

    /// The visitor's own rows.
    static func make(_ activity: ViewingActivity, statistics: PlayStatistics, catalog: ContentCatalog,
                     assetURLs: [String: String]) -> [HomeRow] {
        let entry = entries(catalog, assetURLs)
        let watching = activity.inProgress.lazy.compactMap { entry($0.item, $0) }.prefix(limit)
        let listed = activity.myList.reversed().lazy.compactMap { entry($0, nil) }.prefix(limit)
        var rows = [HomeRow(name: "continue-watching", title: "Continue watching", entries: Array(watching)),
                    HomeRow(name: "my-list", title: "My List", entries: Array(listed))]
        if let latest = activity.latestStarted, let watched = catalog.item(id: latest) {
            let titles = statistics.becauseYouWatched(latest, excluding: Set(activity.finished)) { catalog.item(id: $0) != nil }
            rows.append(HomeRow(name: "because-you-watched", title: "Because you watched \(watched.title)",
                                entries: Array(titles.lazy.compactMap { entry($0, nil) }.prefix(limit))))
        }
        return rows.filter { !$0.entries.isEmpty }
    }

    /// Trending now, the same for every visitor: part of the cached page.
    static func shared(_ statistics: PlayStatistics, catalog: ContentCatalog, assetURLs: [String: String]) -> [HomeRow] {
        let entry = entries(catalog, assetURLs)
        let trending = statistics.trending.lazy.compactMap { entry($0, nil) }.prefix(limit)
        return [HomeRow(name: Self.trending, title: "Trending now", entries: Array(trending), isShared: true)].filter { !$0.entries.isEmpty }
    }

    /// Makes a row's entry from a title's id; nil when the catalogue no longer has it.
    private static func entries(_ catalog: ContentCatalog, _ assetURLs: [String: String])
        -> (String, ViewingActivity.Progress?) -> HomeRow.Entry? {
        { id, progress in
            guard let item = catalog.item(id: id) else { return nil }
            let bar = progress.map {
                (Int(($0.fraction * 100).rounded()),
                 "Watched \(WatchScreenModel.clock($0.position)) of \(WatchScreenModel.clock($0.duration))")
            }
            return HomeRow.Entry(item: item, url: "/\(ItemRequest.Scene(item.kind).rawValue)/\(item.id)",
                                 imageURL: assetURLs[item.imageURL] ?? item.imageURL, progress: bar)
        }
    }
}
