import Foundation

extension ServerProcess {
    /// `count` instances named `instance-0`… on one report database, each with a report log of
    /// its own in `folder`, the shipped stylesheet and one secret, and toggles running a list-vs-grid
    /// experiment `e`: the set-up of the suites that read every instance's events back. `arguments`
    /// go to every instance besides.
    public static func sharingDatabase(_ count: Int, database: String, folder: TemporaryDirectory,
                                       secret: String, arguments: [String] = []) throws -> [ServerProcess] {
        let toggles = folder.path("toggles.json")
        try Data(#"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: toggles))
        return try (0..<count).map { index in
            try ServerProcess(arguments: [
                "--port", "0", "--report-log", folder.path("reports-\(index)"), "--toggles", toggles,
                "--public", repositoryRoot.appendingPathComponent("Public").path,
                "--secret", secret, "--report-database", database, "--instance", "instance-\(index)",
            ] + arguments)
        }
    }
}
