extension ReportEvent {
    /// Calls `body` with each (experiment, group) the properties name: `experiment.<name>` keys,
    /// and the legacy `experiment` + `group` pair unless the same experiment is also named the new way.
    public static func forEachExperiment(in properties: [String: String], _ body: (String, String) -> Void) {
        for (key, value) in properties where key.utf8.count > 11 && key.utf8.starts(with: "experiment.".utf8) {
            body(String(key.dropFirst(11)), value)
        }
        if let name = properties["experiment"], let group = properties["group"], properties["experiment." + name] == nil {
            body(name, group)
        }
    }
}
