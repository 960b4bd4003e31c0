#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The content file as `ConfigVersions` keeps it: versions hold the file's text as uploaded or
/// edited, checked as at start (images included), and the `ContentStore` loads it.
struct CatalogueDocument: VersionedDocument {
    static let names = DocumentNames(kind: "content", event: "content_changed", page: "/admin/content", title: "the catalogue")
    let store: ContentStore

    var path: String { store.fileURL.path }
    var loadedVersion: Int { store.version }

    func validate(_ text: String) throws(ContentCatalogError) -> String {
        _ = try Self.validate(text, store: store)
        return text
    }

    func same(_ a: String, _ b: String) -> Bool { a == b }

    /// The file's text when it is valid and in force; a valid file the store has not loaded yet
    /// (its poll is a second away) is loaded first.
    func inForce() -> String? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
              let catalog = try? ContentCatalog.decode(data, file: "file", publicDirectory: store.publicDirectory) else { return nil }
        if catalog != store.catalog { store.reload() }
        return catalog == store.catalog ? text : nil
    }

    /// `inForce()` loads what it finds.
    func loadIfChanged() {}

    func reload() -> String? {
        if case .failure(let error) = store.reload() { return "\(error)" }
        return nil
    }

    func accepts(_ bytes: [UInt8]) -> Bool {
        (try? ContentCatalog.decode(Data(bytes), file: "file", publicDirectory: store.publicDirectory)) != nil
    }

    /// The catalogue `text` stands for, checked as at start (images included).
    static func validate(_ text: String, store: ContentStore) throws(ContentCatalogError) -> ContentCatalog {
        let data = Data(text.utf8)
        guard data.count <= ContentCatalog.maximumFileBytes else {
            throw ContentCatalogError(file: "upload", problem: "is larger than the \(ContentCatalog.maximumFileBytes / (1024 * 1024)) MiB a content file may have")
        }
        return try ContentCatalog.decode(data, file: "upload", publicDirectory: store.publicDirectory)
    }
}
