import Reporting

/// What `ConfigVersions` needs to know of one configuration file the admin pages version: how the
/// loader checks it, how two versions compare, how the server loads it. The rest (history, hand
/// edits, the atomic write, conflicts, rollback, the database) is the same for every file.
protocol VersionedDocument: Sendable {
    /// The loader's refusal of a proposal, shown beside what it names.
    associatedtype Invalid: Error

    /// The kind in the database (`config_versions`) and on the history pages.
    static var kind: String { get }
    /// The report log's event for a new version.
    static var changedEvent: ReportEvent.Name { get }
    /// For messages: "the toggles", "the catalogue".
    static var title: String { get }
    /// The admin page that changes it.
    static var page: String { get }

    /// The file the server reads.
    var path: String { get }
    /// Counts the server's loads of the file: unchanged, nothing new to look at.
    var loadedVersion: Int { get }

    /// Checks a proposal as the loader does at start; the text a version records for it.
    func validate(_ text: String) throws(Invalid) -> String
    /// Whether two versions' texts stand for the same document.
    func same(_ a: String, _ b: String) -> Bool
    /// The document the server serves, as a version records it; nil while the file holds one the
    /// server has not taken (a hand edit with a mistake).
    func inForce() -> String?
    /// Loads the file when it changed, before an apply looks at what is in force.
    func loadIfChanged()
    /// Loads the file now; the loader's message when it refuses it (the previous one keeps serving).
    func reload() -> String?
    /// Whether the loader takes these bytes: a file it refuses is kept aside before it is replaced.
    func accepts(_ bytes: [UInt8]) -> Bool
}
