/// A row of the visitor's own, above the catalogue's sections: Continue watching, My List. The
/// container gathers it from what the visitor did; every child draws it (`HomeMarkup.rows`).
/// Its titles are links to their pages, not index paths into the child's sections: the sections
/// stay the same for every visitor, so the page around the rows is the one every visitor gets.
public struct HomeRow: Sendable {
    public struct Entry: Sendable {
        public let item: any HomeItem
        /// The title's page.
        public let url: String
        /// The poster's URL as the page links it (versioned by the app).
        public let imageURL: String
        /// How much of it the visitor watched (0...100) and that said in words, for a progress bar.
        public let progress: (percent: Int, label: String)?

        public init(item: any HomeItem, url: String, imageURL: String, progress: (percent: Int, label: String)? = nil) {
            self.item = item
            self.url = url
            self.imageURL = imageURL
            self.progress = progress
        }
    }

    /// Names the row in ids and classes: `continue-watching`, `my-list`.
    public let name: String
    public let title: String
    public let entries: [Entry]
    /// The same for every visitor (Trending now): drawn after the visitor's own, outside the
    /// place a cached page takes theirs at.
    public let isShared: Bool

    public init(name: String, title: String, entries: [Entry], isShared: Bool = false) {
        self.name = name
        self.title = title
        self.entries = entries
        self.isShared = isShared
    }
}
