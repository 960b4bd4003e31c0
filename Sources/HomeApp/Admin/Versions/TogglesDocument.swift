import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The toggles file as `ConfigVersions` keeps it: versions hold the toggles in their written form
/// (`jsonText`), so versions compare field by field whoever made them, and the server's
/// `ToggleRouter` loads the file.
struct TogglesDocument: VersionedDocument {
    static let names = DocumentNames(kind: "toggles", event: "toggles_changed", page: "/admin", title: "the toggles")
    let router: ToggleRouter

    var path: String { router.path }
    var loadedVersion: Int { router.version }

    func validate(_ text: String) throws(TogglesError) -> String {
        try Toggles(json: Data(text.utf8), file: "toggles", layouts: router.layouts).jsonText
    }

    func same(_ a: String, _ b: String) -> Bool {
        guard let first = Self.parse(a) else { return false }
        return first == Self.parse(b)
    }

    func inForce() -> String? { router.toggles.jsonText }

    func loadIfChanged() { router.reloadIfChanged() }

    func reload() -> String? {
        if case .rejected(let error) = router.reload() { return "\(error)" }
        return nil
    }

    func accepts(_ bytes: [UInt8]) -> Bool {
        (try? Toggles(json: Data(bytes), file: "file", layouts: router.layouts)) != nil
    }

    /// Why the loader refuses the file as it is now (a hand edit with a mistake), nil when it takes it.
    var fileProblem: TogglesError? {
        do {
            _ = try Toggles(json: try Data(contentsOf: URL(fileURLWithPath: path)), file: path, layouts: router.layouts)
            return nil
        } catch let error as TogglesError {
            return error
        } catch {
            return TogglesError(file: path, field: nil, reason: "cannot be read (\(ErrorText.describe(error)))")
        }
    }

    /// A version's toggles, without the layout check (a version names the layouts of its day).
    static func parse(_ text: String) -> Toggles? {
        try? Toggles(json: Data(text.utf8), file: "version", layouts: nil)
    }
}
