import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

extension ContentCatalog {
    /// The largest content file read: the default is about 30 KB, and a file is decoded whole.
    public static let maximumFileBytes = 4 * 1024 * 1024
    /// The most items a catalogue may have: every home page shows them all.
    public static let maximumItems = 1_000

    /// Reads and validates a content file; images are checked to exist when `publicDirectory` is given.
    public static func load(contentsOf url: URL, publicDirectory: URL? = nil) throws(ContentCatalogError) -> ContentCatalog {
        let file = url.relativePath
        return try decode(try read(url.path, file: file), file: file, publicDirectory: publicDirectory)
    }

    /// The bytes of a regular file of at most `maximumFileBytes`.
    static func read(_ path: String, file: String) throws(ContentCatalogError) -> Data {
        do {
            return try BoundedFile.read(path, limit: maximumFileBytes)
        } catch {
            let problem = switch error {
            case .system(let code): "cannot be read (\(String(cString: strerror(code))))"
            case .directory, .notRegular: "is not a regular file"
            case .tooLarge: "is larger than the \(maximumFileBytes / (1024 * 1024)) MiB a content file may have"
            }
            throw ContentCatalogError(file: file, problem: problem)
        }
    }

    /// Validates the JSON of a content file; `file` is the name used in error messages.
    public static func decode(_ data: Data, file: String, publicDirectory: URL? = nil) throws(ContentCatalogError) -> ContentCatalog {
        let root: JSONValue
        do {
            root = try JSONValue(reading: data)
        } catch {
            throw ContentCatalogError(file: file, problem: "is not valid JSON\(error)")
        }
        guard case .object(let top) = root else {
            throw ContentCatalogError(file: file, problem: "must be a JSON object with an \"items\" array, not \(root.typeName)")
        }
        if let version = top["version"], version != .number(1) {
            throw ContentCatalogError(file: file, field: "version", problem: "must be 1")
        }
        guard let itemsValue = top["items"] else {
            throw ContentCatalogError(file: file, field: "items", problem: "is missing")
        }
        guard case .array(let elements) = itemsValue else {
            throw ContentCatalogError(file: file, field: "items", problem: "must be an array, not \(itemsValue.typeName)")
        }
        guard !elements.isEmpty else {
            throw ContentCatalogError(file: file, field: "items", problem: "must not be empty")
        }
        guard elements.count <= maximumItems else {
            throw ContentCatalogError(file: file, field: "items",
                                      problem: "has \(elements.count) items; the most a catalogue may have is \(maximumItems)")
        }
        var items: [ContentItem] = []
        var firstIndexOfID: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let reader = ItemReader(file: file, index: index, value: element)
            let item = try reader.item(publicDirectory: publicDirectory)
            if let earlier = firstIndexOfID[item.id] {
                throw reader.error("id", "\"\(item.id)\" is already used by item \(earlier)")
            }
            firstIndexOfID[item.id] = index
            items.append(item)
        }
        return ContentCatalog(items: items)
    }
}

/// Reads one element of `items`, throwing errors that name the item's index and field.
private struct ItemReader {
    let file: String
    let index: Int
    let value: JSONValue

    private static let idCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    private static let largest = 10_000_000.0

    func error(_ field: String?, _ problem: String) -> ContentCatalogError {
        ContentCatalogError(file: file, itemIndex: index, field: field, problem: problem)
    }

    func item(publicDirectory: URL?) throws(ContentCatalogError) -> ContentItem {
        guard case .object(let fields) = value else { throw error(nil, "must be an object, not \(value.typeName)") }
        let id = try string("id", in: fields)
        guard id.count <= 64, id.allSatisfy(Self.idCharacters.contains) else {
            throw error("id", "must be 1 to 64 characters from A-Z, a-z, 0-9, \"-\" and \"_\"")
        }
        let title = try string("title", in: fields)
        let description = try string("description", in: fields)
        let kindName = try string("kind", in: fields)
        guard let kind = ContentItem.Kind(rawValue: kindName) else {
            throw error("kind", "must be one of long, short, live")
        }
        let timing: ContentItem.Timing = switch kind {
        case .long: .minutes(try wholeNumber("durationMinutes", in: fields, kind: kind))
        case .short: .seconds(try wholeNumber("durationSeconds", in: fields, kind: kind))
        case .live: .startsAt(try date("startsAt", in: fields))
        }
        let image = try imagePath(in: fields, publicDirectory: publicDirectory)
        return ContentItem(id: id, title: title, description: description, image: image, timing: timing)
    }

    private func string(_ field: String, in fields: [String: JSONValue]) throws(ContentCatalogError) -> String {
        guard let value = fields[field] else { throw error(field, "is missing") }
        guard case .string(let text) = value else { throw error(field, "must be a string, not \(value.typeName)") }
        guard !text.allSatisfy(\.isWhitespace) else { throw error(field, "must not be empty") }
        // Titles and descriptions are shown to every visitor as they are: a pasted direction
        // override would turn a tile's text around. HTML's own white space stays allowed.
        if let control = text.unicodeScalars.first(where: { $0.isInvisibleControl && !"\t\n\r".unicodeScalars.contains($0) }) {
            var id: String?
            if field != "id", case .string(let text) = fields["id"] { id = text }
            throw ContentCatalogError(file: file, itemIndex: index, itemID: id, field: field,
                                      problem: "holds an invisible character (\(String(printf: "U+%04X", control.value))) that would "
                                      + "break the line or turn the text around it; write it without it")
        }
        return text
    }

    private func wholeNumber(_ field: String, in fields: [String: JSONValue], kind: ContentItem.Kind) throws(ContentCatalogError) -> Int {
        guard let value = fields[field] else { throw error(field, "is missing (required for kind \(kind.rawValue))") }
        guard case .number(let number) = value else { throw error(field, "must be a number, not \(value.typeName)") }
        guard number > 0, number.rounded() == number else { throw error(field, "must be a whole number greater than 0") }
        guard number <= Self.largest else { throw error(field, "must be at most \(Int(Self.largest))") }
        return Int(number)
    }

    private func date(_ field: String, in fields: [String: JSONValue]) throws(ContentCatalogError) -> Date {
        let example = "must be an ISO-8601 UTC time like 2026-11-21T20:30:00Z"
        let text = try string(field, in: fields)
        guard text.hasSuffix("Z") else { throw error(field, example) }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        throw error(field, example)
    }

    private func imagePath(in fields: [String: JSONValue], publicDirectory: URL?) throws(ContentCatalogError) -> String {
        let path = try string("image", in: fields)
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !path.contains("\\"), !parts.contains(where: { $0 == ".." || $0.isEmpty }) else {
            throw error("image", "must be a relative path inside Public/ (no leading \"/\", no \"..\"), not \"\(path)\"")
        }
        if let publicDirectory,
           !FileManager.default.fileExists(atPath: publicDirectory.appendingPathComponent(path).path) {
            throw error("image", "names a file that does not exist: \(path)")
        }
        return path
    }
}
