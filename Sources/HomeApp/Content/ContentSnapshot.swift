/// A catalogue together with the store version it was published as; read once per request
/// so a render never mixes two catalogues.
public struct ContentSnapshot: Sendable {
    /// The catalogue in force.
    public let catalog: ContentCatalog
    /// Starts at 1 and grows by one on every successful reload; a render cache key.
    public let version: Int

    /// Pairs a catalogue with its version.
    public init(catalog: ContentCatalog, version: Int) {
        self.catalog = catalog
        self.version = version
    }
}
