import Reporting
import TestSupport

/// Random report events for tests that compare a fast path with the obvious one: every known name
/// and one unknown, layouts or none, items, visitors or none, and experiment tags the new way, the
/// legacy way and two experiments at once. In time order from `start`, each event up to `maxStep`
/// ms after the last (half of them at the same ms).
public enum RandomReportLog {
    public static func events(_ count: Int, seed: UInt64, start: Int64, maxStep: Int64 = 60_000,
                              visitors: Int = 300) -> [ReportEvent] {
        var random = SplitMix64(state: seed)
        var ms = start
        let names: [ReportEvent.Name] = ReportEvent.Name.known + ["custom_thing"]
        return (0..<count).map { _ in
            ms += Int64.random(in: 0...maxStep, using: &random) * (Bool.random(using: &random) ? 1 : 0)
            var properties: [String: String] = [:]
            switch Int.random(in: 0..<6, using: &random) {
            case 0: properties["experiment.hero"] = ["a", "b"].randomElement(using: &random)!
            case 1: properties = ["experiment": "hero", "group": ["a", "b"].randomElement(using: &random)!]
            case 2:
                properties["experiment.hero"] = "b"
                properties["experiment.color"] = ["red", "blue"].randomElement(using: &random)!
            case 3: properties["row"] = "\(Int.random(in: 0..<3, using: &random))"
            default: break
            }
            return ReportEvent(
                names.randomElement(using: &random)!, timestamp: ReportTimestamp.date(milliseconds: ms),
                layout: [nil, "list", "grid", "rows"].randomElement(using: &random)!,
                item: Bool.random(using: &random) ? "m\(Int.random(in: 0..<20, using: &random))" : nil,
                visitor: Int.random(in: 0..<10, using: &random) == 0
                    ? nil : "v\(Int.random(in: 0..<visitors, using: &random))",
                properties: properties)
        }
    }
}
