import Reporting

/// How one versioned file is named in the database, the report log, the admin pages and messages.
struct DocumentNames: Sendable {
    /// The kind in the database (`config_versions`) and the history's folder.
    let kind: String
    /// The report log's event for a new version.
    let event: ReportEvent.Name
    /// The admin page that changes it.
    let page: String
    /// For messages: "the toggles", "the catalogue".
    let title: String
}

/// What `ConfigVersions` needs to know of one configuration file the admin pages version: how the
/// loader checks it, how two versions compare, how the server loads it. The rest (history, hand
/// edits, the atomic write, conflicts, rollback, the database) is the same for every file.
protocol VersionedDocument: Sendable {
    /// The loader's refusal of a proposal, shown beside what it names.
    associatedtype Invalid: Error

    static var names: DocumentNames { get }

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
