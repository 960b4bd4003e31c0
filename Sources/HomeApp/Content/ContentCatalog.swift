import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An immutable, validated catalogue with the look-ups the home screen, scenes and search need.
public struct ContentCatalog: Sendable, Equatable {
    /// Every item, in the order of the file.
    public let items: [ContentItem]
    private let byID: [String: Int]
    private let byKind: [ContentItem.Kind: [ContentItem]]
    /// Folded "title description" per item, parallel to `items`.
    private let searchText: [String]

    /// Builds a catalogue from items with unique ids (a duplicate is a programming error;
    /// files go through `decode`, which reports duplicates as a `ContentCatalogError`).
    public init(items: [ContentItem]) {
        var byID: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            precondition(byID.updateValue(index, forKey: item.id) == nil, "duplicate content id \(item.id)")
        }
        self.items = items
        self.byID = byID
        self.byKind = Dictionary(grouping: items, by: \.kind)
        self.searchText = items.map { Self.fold("\($0.title) \($0.description)") }
    }

    public static func == (lhs: ContentCatalog, rhs: ContentCatalog) -> Bool {
        lhs.items == rhs.items
    }

    /// The item with this id, if any.
    public func item(id: String) -> ContentItem? {
        byID[id].map { items[$0] }
    }

    /// Items of one kind, in catalogue order.
    public func items(ofKind kind: ContentItem.Kind) -> [ContentItem] {
        byKind[kind] ?? []
    }

    /// Up to `limit` other items of the same kind: those after it in the catalogue, wrapping round,
    /// so neighbouring items suggest different things.
    public func related(to item: ContentItem, limit: Int = 6) -> [ContentItem] {
        let sameKind = items(ofKind: item.kind)
        guard let position = sameKind.firstIndex(where: { $0.id == item.id }) else {
            return Array(sameKind.prefix(limit))
        }
        let after = sameKind[(position + 1)...] + sameKind[..<position]
        return Array(after.prefix(max(0, limit)))
    }

    /// Items whose title or description contains every word of `query`, ignoring case and
    /// diacritics ("cafe" finds "Café"), in catalogue order; an empty query finds nothing.
    public func search(_ query: String) -> [ContentItem] {
        let words = Self.fold(query).split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { return [] }
        return items.indices
            .filter { index in words.allSatisfy { searchText[index].contains($0) } }
            .map { items[$0] }
    }

    /// Lower case without accents, full-width ASCII as ASCII, the typographic apostrophe as `'`.
    private static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue  // a combining accent
            default: break
            }
            if (0xFF01...0xFF5E).contains(scalar.value) {
                folded.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            } else if scalar == "\u{2019}" {
                folded.append("'")
            } else {
                folded.append(withoutAccent(scalar))
            }
        }
        return String(folded)
    }

    /// `e` for `é`: the letter Unicode names a Latin letter after (`LATIN SMALL LETTER E WITH ACUTE`),
    /// Foundation's diacritic folding, which needs ICU, written with the names the standard library has.
    private static func withoutAccent(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard !scalar.isASCII, let name = scalar.properties.name, name.hasPrefix("LATIN SMALL LETTER "),
              let with = name.firstRange(of: " WITH ") else { return scalar }
        let letter = name[name.index(name.startIndex, offsetBy: 19)..<with.lowerBound]
        guard letter.count == 1, let base = letter.unicodeScalars.first, ("A"..."Z").contains(base) else { return scalar }
        return Unicode.Scalar(base.value + 32)!
    }
}
