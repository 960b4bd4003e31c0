import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// A change of the toggles or the catalogue, as the report log records it (`toggles_changed`,
/// `content_changed`, with `version`, `who` and `note`): a marker on the report charts, so a
/// jump in the figures can be read against what changed then.
struct ConfigChange: Equatable {
    /// Markers per chart: the newest of the range when there are more.
    static let limit = 100
    static let names = ["toggles_changed", "content_changed"]

    let at: Date
    /// `toggles` or `content`.
    let kind: String
    let version: Int?
    let who: String?
    let note: String?

    init?(_ event: ReportEvent) {
        switch event.name.rawValue {
        case "toggles_changed": kind = "toggles"
        case "content_changed": kind = "content"
        default: return nil
        }
        at = event.timestamp
        version = event.properties["version"].flatMap { Int($0) }
        who = event.properties["who"].flatMap { $0.isEmpty ? nil : $0 }
        note = event.properties["note"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// "Toggles version 5, by alice: grid for everyone (2026-11-24 12:00 UTC)".
    var label: String {
        var text = (kind == "toggles" ? "Toggles" : "Catalogue") + (version.map { " version \($0)" } ?? " changed")
        if let who { text += ", by \(who)" }
        if let note { text += ": \(note)" }
        let stamp = ReportTimestamp.string(from: at)
        return text + " (\(stamp.prefix(10)) \(stamp.dropFirst(11).prefix(5)) UTC)"
    }

    /// The changes in `range` from this instance's log.
    static func local(_ store: ReportStore, _ range: ReportRange) -> [ConfigChange] {
        store.events(named: names, in: range, limit: limit).compactMap(ConfigChange.init)
    }

    /// `"changes":[{"at","kind","version","who","note"}]`, oldest first.
    static func jsonMember(_ changes: [ConfigChange]) -> String {
        let string = JSONText.string
        let items = changes.map { change in
            "{\"at\":\(JSONText.time(change.at)),\"kind\":\(string(change.kind)),\"version\":\(change.version.map(String.init) ?? "null"),"
                + "\"who\":\(change.who.map(string) ?? "null"),\"note\":\(change.note.map(string) ?? "null")}"
        }
        return "\"changes\":[\(items.joined(separator: ","))]"
    }
}
