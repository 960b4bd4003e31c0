extension ReportEvent {
    /// The property that marks a QA visitor's event (a forced group or layout): it names its
    /// groups like any other, but experiment results never count it.
    public static let qaMark = "qa"

    /// Calls `body` with each (experiment, group) the properties name: `experiment.<name>` keys,
    /// and the legacy `experiment` + `group` pair unless the same experiment is also named the new
    /// way. None for an event with the QA mark.
    public static func forEachExperiment(in properties: [String: String], _ body: (String, String) -> Void) {
        // Looked up once an experiment is found: most events name none.
        var checked = false
        for (key, value) in properties where key.utf8.count > 11 && key.utf8.starts(with: "experiment.".utf8) {
            if !checked {
                guard properties[qaMark] == nil else { return }
                checked = true
            }
            body(String(key.dropFirst(11)), value)
        }
        if let name = properties["experiment"], let group = properties["group"], properties["experiment." + name] == nil,
           checked || properties[qaMark] == nil {
            body(name, group)
        }
    }
}
