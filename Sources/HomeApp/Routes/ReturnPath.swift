import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP

/// Where closing a modal takes the visitor: the page they opened it from. A `from` field (in the
/// query or the form) names it, else the `Referer` of a page on this site, else it is the home.
/// Only a path on this site is ever used, since it goes into a link and a `Location`.
enum ReturnPath {
    static let field = "from"
    static let home = "/"
    /// Longer ones are nowhere a visitor was.
    static let maximumLength = 1024

    /// Where to go back to from `request`'s modal; `isModal` says whether a path is the modal's
    /// own page, which is never the way back (it would open the modal again).
    static func resolve(_ request: Request, isModal: (String) -> Bool) -> String {
        if let named = request.query[field] ?? request.form[field], let path = local(named), !isModal(path) {
            return shownAgain(path)
        }
        if let referer = request.headers["Referer"], let path = onSite(referer, host: request.headers["Host"]),
           !isModal(path) {
            return shownAgain(path)
        }
        return home
    }

    /// The query field that marks search results shown again on the way back, not searched anew.
    static let again = "again"

    /// Search results gone back to are marked, so showing them again writes no second search.
    /// Their own `from` (where the box they came from was opened) is left behind: it is no way back
    /// from them, and carried on it would nest in every later search's address until too long.
    static func shownAgain(_ path: String) -> String {
        guard path.hasPrefix("/search?"), !isSearchBox(path) else { return path }
        let pairs = path.dropFirst("/search?".count).split(separator: "&").filter { $0.prefix { $0 != "=" } != field }
        let results = "/search?" + pairs.joined(separator: "&")
        let fields = pairs.map { $0.prefix { $0 != "=" } }
        guard !fields.contains(where: { $0 == again || $0 == "layout" || $0 == "row" }) else { return results }
        return results + "&\(again)=1"
    }

    /// The hidden field that carries `path` through the modal's own forms; none for the home.
    static func fields(_ path: String) -> [(name: String, value: String)] {
        path == home ? [] : [(field, path)]
    }

    /// `text` if it is a path on this site, without its fragment: `/` not followed by `/` or `\`
    /// (which browsers read as another host), printable ASCII without `\` (nothing that breaks a
    /// header line or needs more than attribute escaping).
    static func local(_ text: String) -> String? {
        let bytes = text.utf8
        guard (1...maximumLength).contains(bytes.count), bytes.first == UInt8(ascii: "/"),
              bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") })
        else { return nil }
        if bytes.dropFirst().first == UInt8(ascii: "/") { return nil }
        return String(text.prefix { $0 != "#" })
    }

    /// The path and query of `referer` when it is a page of `host` (its name compared without the
    /// port: a proxy may pass `Host` without it).
    static func onSite(_ referer: String, host: String?) -> String? {
        guard let host, !host.isEmpty else { return nil }
        for scheme in ["http://", "https://"] where referer.hasPrefix(scheme) {
            let rest = referer.dropFirst(scheme.count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            guard hostName(rest[..<slash]) == hostName(Substring(host)) else { return nil }
            return local(slash == rest.endIndex ? home : String(rest[slash...]))
        }
        return nil
    }

    /// `example.org:8080` → `example.org`, `[::1]:8080` → `[::1]`, lower-cased.
    private static func hostName(_ authority: Substring) -> String {
        if authority.hasPrefix("[") { return (authority.prefix { $0 != "]" } + "]").lowercased() }
        return authority.prefix { $0 != ":" }.lowercased()
    }

    /// The search box itself: `/search` without a word to search for (results are a page).
    static func isSearchBox(_ path: String) -> Bool {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0] == "/search" else { return false }
        let query = parts.count > 1 ? parts[1] : ""
        return !query.split(separator: "&").contains { pair in
            guard pair.hasPrefix("q=") else { return false }
            let value = pair.dropFirst(2).replacing("+", with: " ")
            return !(PercentEncoding.decode(value) ?? String(value)).allSatisfy(\.isWhitespace)
        }
    }

    /// The onboarding modals: `/onboarding` and `/onboarding/layout`.
    static func isOnboarding(_ path: String) -> Bool {
        path == "/onboarding" || path.hasPrefix("/onboarding/") || path.hasPrefix("/onboarding?")
    }
}
