import Basics

extension Toggles {
    /// The home's rows a toggles file may switch, by the names the page gives them
    /// (`data-row-name`): `{"rows": {"trending": false}}` at the top level, or in a group of an
    /// experiment, which then measures whether the row raises plays. A row not named stays on.
    public static let rowNames = ["continue-watching", "my-list", "trending", "because-you-watched"]

    /// `{"my-list": false, …}` at `path`: row names to whether they are shown.
    static func rows(_ value: JSONValue, _ path: String, _ fail: Fail) throws(TogglesError) -> [String: Bool] {
        guard case .object(let members) = value else {
            throw fail(path, "must be an object of row names and true or false, like {\"trending\": false} (got \(value.kind))")
        }
        var rows: [String: Bool] = [:]
        for (name, shown) in members.sorted(by: { $0.key < $1.key }) {
            guard rowNames.contains(name) else {
                throw fail("\(path).\(name.prefix(40))", "is not a row (rows: \(rowNames.joined(separator: ", ")))")
            }
            guard case .bool(let on) = shown else { throw fail("\(path).\(name)", "must be true or false (got \(shown.kind))") }
            rows[name] = on
        }
        return rows
    }

    /// At most one active experiment switches each row: a visitor is in every active experiment,
    /// and two could say opposite things.
    static func checkRowExperiments(_ experiments: [Experiment], _ fail: Fail) throws(TogglesError) {
        for row in rowNames {
            let clashing = experiments.filter { $0.active && $0.groups.contains { $0.rows[row] != nil } }.map(\.name)
            guard clashing.count > 1 else { continue }
            throw fail("experiments", "\(clashing.map { "\"\($0)\"" }.joined(separator: " and ")) are active and each switches "
                       + "the row \(row), so a visitor in more than one would get several; stop all but one with \"active\": false")
        }
    }

    /// The rows as the file the admin pages write: `{"trending": false}`, names in order.
    static func rowsText(_ rows: [String: Bool]) -> String {
        "{" + rows.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
    }
}
