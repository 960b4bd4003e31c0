/// The parts of a file path as text, the way Foundation's `NSString` path methods split them,
/// by hand: the server leaves out Foundation, which comes with ICU.
public enum PathText {
    /// The last component: `b` for `/a/b` and `/a/b/`, `/` for `/`.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component: `/a` for `/a/b`, `/` for `/a`, empty for `a`.
    public static func directory(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// `name` inside `directory`, one `/` between them.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
