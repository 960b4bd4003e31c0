#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScreenKit

/// Two catalogues compared item by item (by id): added, removed, changed (any field).
struct ContentDiff {
    let added: [ContentItem]
    let removed: [ContentItem]
    let changed: [(before: ContentItem, after: ContentItem)]

    /// Nil when either text is not a catalogue (a version recorded before a rule changed).
    init?(from old: String, to new: String) {
        guard let before = Self.catalog(old), let after = Self.catalog(new) else { return nil }
        let beforeByID = Dictionary(before.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let afterIDs = Set(after.items.map(\.id))
        added = after.items.filter { beforeByID[$0.id] == nil }
        removed = before.items.filter { !afterIDs.contains($0.id) }
        changed = after.items.compactMap { item in
            guard let old = beforeByID[item.id], old != item else { return nil }
            return (old, item)
        }
    }

    var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// Lists of the items added, removed and changed, each with its id and title.
    func render(into writer: inout HTMLWriter) {
        guard !isEmpty else {
            writer.write("<p class=\"admin-diff__none\">No item added, removed or changed.</p>")
            return
        }
        writer.write("<ul class=\"admin-content-diff\">")
        for item in added { line("Added", item, into: &writer) }
        for item in removed { line("Removed", item, into: &writer) }
        for (before, after) in changed {
            line("Changed", after, into: &writer, fields: Self.changedFields(before, after))
        }
        writer.write("</ul>")
    }

    private func line(_ what: String, _ item: ContentItem, into writer: inout HTMLWriter, fields: [String] = []) {
        writer.write("<li")
        writer.attribute("data-change", what.lowercased())
        writer.write(">")
        writer.text(what)
        writer.write(": <code>")
        writer.text(item.id)
        writer.write("</code> ")
        writer.text(item.title)
        if !fields.isEmpty {
            writer.write(" (")
            writer.text(fields.joined(separator: ", "))
            writer.write(")")
        }
        writer.write("</li>")
    }

    static func changedFields(_ a: ContentItem, _ b: ContentItem) -> [String] {
        var fields: [String] = []
        if a.title != b.title { fields.append("title") }
        if a.description != b.description { fields.append("description") }
        if a.image != b.image { fields.append("image") }
        if a.timing != b.timing { fields.append("kind or timing") }
        return fields
    }

    private static func catalog(_ text: String) -> ContentCatalog? {
        try? ContentCatalog.decode(Data(text.utf8), file: "version")
    }
}
