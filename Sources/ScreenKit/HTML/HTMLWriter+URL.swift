extension HTMLWriter {
    /// What a refused URL is written as: a harmless same-page fragment.
    public static let refusedURL = "#"

    /// Whether `url` may be written into an `href`/`src`/`action` built from data.
    ///
    /// Only relative URLs and `http:`/`https:` pass. The check mirrors how browsers parse: leading
    /// C0 controls and spaces are skipped and tabs/newlines anywhere are ignored, so
    /// `" java\tscript:"` is seen as the `javascript:` scheme it is.
    public static func isSafeURL(_ url: String) -> Bool {
        var scheme: [UInt8] = []
        var leading = true
        for byte in url.utf8 {
            if leading && byte <= 0x20 { continue }
            leading = false
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            switch byte {
            case UInt8(ascii: ":"):
                return scheme == Array("http".utf8) || scheme == Array("https".utf8)
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\\"):
                return true  // a path, query or fragment came first: relative
            default:
                // Lower-case ASCII letters; anything else keeps the scheme from matching.
                // A sixth byte makes the scheme longer than "https", so it can never match.
                if scheme.count < 6 { scheme.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
            }
        }
        return true  // no colon before the path: a relative reference
    }

    /// `url` if it is safe (see `isSafeURL(_:)`), otherwise `refusedURL`.
    public static func safeURL(_ url: String) -> String {
        isSafeURL(url) ? url : refusedURL
    }

    /// Appends ` name="url"` for a URL from data: escaped, and refused unless relative or http(s).
    public mutating func urlAttribute(_ name: StaticString, _ url: String) {
        attribute(name, HTMLWriter.safeURL(url))
    }
}
