import Foundation
import TestSupport
import Testing
@testable import HomeApp

/// Content catalogue.
@Suite struct ContentCatalogTests {
    typealias F = ContentFixtures

    @Test func theDefaultConfigContentJsonLoadsWithEveryKindAndEveryPoster() throws {
        let catalog = try ContentCatalog.load(contentsOf: F.defaultContent, publicDirectory: F.publicDirectory)
        #expect(catalog.items.count >= 60)
        for kind in ContentItem.Kind.allCases {
            #expect(catalog.items(ofKind: kind).count >= 20, "too few \(kind) items")
        }
        for item in catalog.items {
            let poster = F.publicDirectory.appendingPathComponent(item.image)
            let data = try #require(FileManager.default.contents(atPath: poster.path), "missing \(item.image)")
            #expect(data.count < 2048, "\(item.image) is \(data.count) bytes")
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("<svg "), "\(item.image) is not an SVG")
        }
        #expect(FileManager.default.fileExists(atPath: F.publicDirectory.appendingPathComponent("images/logo.svg").path))
    }

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let message: String
        var testDescription: String { name }
    }

    static let invalidCases: [InvalidCase] = [
        .init(name: "top level not an object", json: "[]",
              message: #"bad.json: must be a JSON object with an "items" array, not an array"#),
        .init(name: "wrong version", json: #"{"version":2,"items":[]}"#,
              message: #"bad.json: field "version" must be 1"#),
        .init(name: "missing items", json: #"{"version":1}"#, message: #"bad.json: field "items" is missing"#),
        .init(name: "items not an array", json: #"{"items":{}}"#,
              message: #"bad.json: field "items" must be an array, not an object"#),
        .init(name: "no items", json: F.file(), message: #"bad.json: field "items" must not be empty"#),
        .init(name: "item not an object", json: F.file(F.longItem, #""oops""#),
              message: "bad.json: item 1: must be an object, not a string"),
        .init(name: "unknown kind", json: F.file(F.longItem, F.shortItem.replacingOccurrences(of: #""short""#, with: #""clip""#)),
              message: #"bad.json: item 1: field "kind" must be one of long, short, live"#),
        .init(name: "missing title", json: F.file(F.longItem.replacingOccurrences(of: #""title":"Salt & Iron","#, with: "")),
              message: #"bad.json: item 0: field "title" is missing"#),
        .init(name: "blank description", json: F.file(F.shortItem, F.liveItem.replacingOccurrences(of: "Headlines all day.", with: "  ")),
              message: #"bad.json: item 1: field "description" must not be empty"#),
        .init(name: "title not a string", json: F.file(F.longItem.replacingOccurrences(of: #""Salt & Iron""#, with: "42")),
              message: #"bad.json: item 0: field "title" must be a string, not a number"#),
        .init(name: "duplicate id", json: F.file(F.longItem, F.shortItem, F.longItem),
              message: #"bad.json: item 2: field "id" "m-001" is already used by item 0"#),
        .init(name: "id not URL-safe", json: F.file(F.shortItem.replacingOccurrences(of: "s-001", with: "s/001?")),
              message: #"bad.json: item 0: field "id" must be 1 to 64 characters from A-Z, a-z, 0-9, "-" and "_""#),
        .init(name: "image climbing out of Public", json: F.file(F.longItem, F.liveItem.replacingOccurrences(of: "images/posters/l-001.svg", with: "../secrets.svg")),
              message: #"bad.json: item 1: field "image" must be a relative path inside Public/ (no leading "/", no ".."), not "../secrets.svg""#),
        .init(name: "absolute image path", json: F.file(F.longItem.replacingOccurrences(of: "images/posters/m-001.svg", with: "/etc/passwd")),
              message: #"bad.json: item 0: field "image" must be a relative path inside Public/ (no leading "/", no ".."), not "/etc/passwd""#),
        .init(name: "negative duration", json: F.file(F.longItem.replacingOccurrences(of: "124", with: "-5")),
              message: #"bad.json: item 0: field "durationMinutes" must be a whole number greater than 0"#),
        .init(name: "fractional duration", json: F.file(F.shortItem.replacingOccurrences(of: "205", with: "20.5")),
              message: #"bad.json: item 0: field "durationSeconds" must be a whole number greater than 0"#),
        .init(name: "duration of the wrong kind", json: F.file(F.shortItem.replacingOccurrences(of: "durationSeconds", with: "durationMinutes")),
              message: #"bad.json: item 0: field "durationSeconds" is missing (required for kind short)"#),
        .init(name: "unparsable date", json: F.file(F.liveItem.replacingOccurrences(of: "2026-11-21T19:45:00Z", with: "tomorrow 8pm")),
              message: #"bad.json: item 0: field "startsAt" must be an ISO-8601 UTC time like 2026-11-21T20:30:00Z"#),
        .init(name: "date without UTC marker", json: F.file(F.liveItem.replacingOccurrences(of: "2026-11-21T19:45:00Z", with: "2026-11-21T19:45:00")),
              message: #"bad.json: item 0: field "startsAt" must be an ISO-8601 UTC time like 2026-11-21T20:30:00Z"#),
        .init(name: "direction override in a title", json: F.file(F.longItem, F.shortItem.replacingOccurrences(of: "\"title\":\"", with: "\"title\":\"\u{202E}")),
              message: #"bad.json: item 1 ("s-001"): field "title" holds an invisible character (U+202E) that would break the line or turn the text around it; write it without it"#),
        .init(name: "line separator in a description", json: F.file(F.liveItem.replacingOccurrences(of: "Headlines all day.", with: "Headlines\u{2028}all day.")),
              message: #"bad.json: item 0 ("l-001"): field "description" holds an invisible character (U+2028) that would break the line or turn the text around it; write it without it"#),
        .init(name: "escape in an id", json: F.file(F.longItem.replacingOccurrences(of: "m-001", with: #"m-\u001b001"#)),
              message: #"bad.json: item 0: field "id" holds an invisible character (U+001B) that would break the line or turn the text around it; write it without it"#),
    ]

    @Test(arguments: invalidCases)
    func anInvalidFileFailsWithOneMessageNamingFileItemAndField(_ invalid: InvalidCase) {
        let error = #expect(throws: ContentCatalogError.self) {
            try ContentCatalog.decode(Data(invalid.json.utf8), file: "bad.json")
        }
        #expect(error?.description == invalid.message)
    }

    @Test func textThatIsNotJSONNamesTheFileAndSaysSo() throws {
        let error = #expect(throws: ContentCatalogError.self) {
            try ContentCatalog.decode(Data(#"{"items": [ {"id": "m-1",  "#.utf8), file: "bad.json")
        }
        #expect(error?.description == "bad.json: is not valid JSON at line 1, column 28: the file ends where a key was expected")
        #expect(error?.itemIndex == nil)
    }

    @Test func aFileOnDiskIsNamedAsGivenAMissingImageAndAMissingFileAreReported() throws {
        let directory = try F.temporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("mine.json")
        try F.write(F.file(F.longItem, F.shortItem), to: url)
        let error = #expect(throws: ContentCatalogError.self) {
            try ContentCatalog.load(contentsOf: url, publicDirectory: directory.url)
        }
        #expect(error?.description == "\(url.relativePath): item 0: field \"image\" names a file that does not exist: images/posters/m-001.svg")
        #expect(try ContentCatalog.load(contentsOf: url).items.map(\.id) == ["m-001", "s-001"])

        let missing = directory.url.appendingPathComponent("nowhere.json")
        let unreadable = #expect(throws: ContentCatalogError.self) { try ContentCatalog.load(contentsOf: missing) }
        #expect(unreadable?.description.hasPrefix("\(missing.relativePath): cannot be read") == true)
    }

    @Test func lookUpsByIdAndKindAndRelatedItemsOfTheSameKind() throws {
        let catalog = try ContentCatalog.load(contentsOf: F.defaultContent)
        #expect(catalog.item(id: "m-003")?.title == "Last Train to Zürich")
        #expect(catalog.item(id: "nope") == nil)
        let shorts = catalog.items(ofKind: .short)
        #expect(shorts.allSatisfy { $0.kind == .short })
        #expect(shorts.map(\.id) == catalog.items.filter { $0.kind == .short }.map(\.id))

        let last = try #require(catalog.items(ofKind: .live).last)
        let related = catalog.related(to: last, limit: 4)
        #expect(related.count == 4)
        #expect(related.allSatisfy { $0.kind == .live && $0.id != last.id })
        #expect(related.first?.id == catalog.items(ofKind: .live).first?.id, "wraps round to the start")
    }

    @Test func searchMatchesTitleAndDescriptionWordsIgnoringCaseAndDiacritics() throws {
        let catalog = try ContentCatalog.load(contentsOf: F.defaultContent)
        #expect(catalog.search("lighthouse").map(\.id) == ["m-001", "s-015"])
        #expect(catalog.search("ZURICH").map(\.id) == ["m-003", "s-006", "l-006"])
        #expect(catalog.search("cafe").map(\.id) == ["m-012", "l-022"])
        #expect(catalog.search("crepes").map(\.id) == ["s-019"])
        #expect(catalog.search("osprey nest").map(\.id) == ["l-009"])
        #expect(catalog.search("harbour low tide").map(\.id) == ["m-006"])
        #expect(catalog.search("keeper's").map(\.id) == ["m-001", "s-015"])
        #expect(catalog.search("xylophone").isEmpty)
        #expect(catalog.search("   ").isEmpty)
    }
}
