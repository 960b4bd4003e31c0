import Foundation
import HomeAppTestSupport
import TestSupport

/// The default catalogue as the tests expect to see it, read straight from `Config/content.json`
/// (not through the app), so the app's own mapping is what is checked.
enum Catalogue {
    struct Entry: Decodable {
        let id: String
        let kind: String
        let title: String
        let description: String
    }

    static let entries: [Entry] = {
        struct File: Decodable { let items: [Entry] }
        let data = try! Data(contentsOf: AppFixture.configFolder.appendingPathComponent("content.json"))
        return try! JSONDecoder().decode(File.self, from: data).items
    }()

    static func ids(_ kind: String) -> [String] { entries.filter { $0.kind == kind }.map(\.id) }
    static func title(_ id: String) -> String { entries.first { $0.id == id }!.title }

    /// The id at a child's index path, by the order each layout gives its sections.
    static func id(at position: String, layout: String) -> String {
        let parts = position.split(separator: ".").map { Int($0)! }
        let kinds = layout == "grid" ? ["live", "long", "short"] : ["long", "short", "live"]
        return ids(kinds[parts[0]])[parts[1]]
    }

    /// The scene URL an item opens: `/long/ID`, `/short/ID` or `/stream/ID`.
    static func scene(_ id: String) -> String {
        let kind = entries.first { $0.id == id }!.kind
        return "/\(kind == "live" ? "stream" : kind)/\(id)"
    }
}

extension HTMLElement {
    /// The button in the home layout's form whose text starts with the item's title.
    func openButton(for id: String) -> HTMLElement? {
        buttons(named: "open").first { $0.text.hasPrefix(Catalogue.title(id)) }
    }
}

/// A visitor id in the app's format (32 lower-case hex digits) made from `seed`.
func visitorID(_ seed: Int) -> String {
    let hex = String(seed, radix: 16)
    return String(repeating: "0", count: 32 - hex.count) + hex
}
