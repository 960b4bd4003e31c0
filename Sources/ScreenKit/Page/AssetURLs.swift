/// The versioned URLs of the site's files, `/assets/app.css` → `/assets/app.1a2b3c4d.css`, set by
/// the app on each render: a page links every stylesheet, script and image by the name that
/// changes with the file, so browsers may keep them for a year.
public enum AssetURLs: RenderContextKey {
    public static let defaultValue: [String: String] = [:]
}

extension RenderContext {
    /// The versioned URL of `url`, or `url` itself when it has none.
    public func assetURL(_ url: String) -> String { self[AssetURLs.self][url] ?? url }
}
