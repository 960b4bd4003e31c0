/// Why a report directory cannot be used.
public struct ReportStoreError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }

    /// `path` is an old single-file log: the one line the server refuses to start with.
    static func singleFile(_ path: String) -> ReportStoreError {
        ReportStoreError(
            "\(path) is a single-file report log; --report-log now names a directory. "
                + "Import it with: dynamic-home reports import \(path) --report-log <new directory>")
    }
}
