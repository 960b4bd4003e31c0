import FeatureToggles
import ScreenKit

/// What one visitor gets now and would get after the change: layout, onboarding notice, groups.
/// (Their own layout choice, a cookie, still comes first on the home page.)
struct AdminPreview {
    let visitor: String
    let before: Toggles
    let after: Toggles

    func render(into writer: inout HTMLWriter) {
        let now = FeatureDecisions(toggles: before).plan(for: visitor)
        let then = FeatureDecisions(toggles: after).plan(for: visitor)
        writer.write("<h2>Preview for visitor <code>")
        writer.text(String(visitor.prefix(64)))
        writer.write("</code></h2>")
        if Self.targets(before) || Self.targets(after) {
            // Targeting reads what a request carries; a preview has only the id, so say what it takes.
            let traits = VisitorTraits()
            writer.write("<p data-preview-assumes>")
            writer.text("Targeting reads what each request carries, so this preview takes the visitor as a "
                        + "\(traits.cohort.rawValue) \(traits.device.rawValue) visitor with no first language and no layout of their own choosing.")
            writer.write("</p>")
        }
        writer.write("<table class=\"admin-preview\"><thead><tr><th scope=\"col\">What</th>")
        writer.write("<th scope=\"col\">Now</th><th scope=\"col\">After the change</th></tr></thead><tbody>")
        row("Layout", now.layout, then.layout, into: &writer)
        row("Onboarding notice", now.showsOnboarding ? "shown" : "not shown", then.showsOnboarding ? "shown" : "not shown", into: &writer)
        row("Groups", Self.groups(now), Self.groups(then), into: &writer)
        writer.write("</tbody></table>")
    }

    private func row(_ what: String, _ now: String, _ then: String, into writer: inout HTMLWriter) {
        writer.write(now == then ? "<tr>" : "<tr class=\"admin-preview__changed\">")
        writer.write("<th scope=\"row\">")
        writer.text(what)
        writer.write("</th><td>")
        writer.text(now)
        writer.write("</td><td>")
        writer.text(then)
        writer.write("</td></tr>")
    }

    private static func targets(_ toggles: Toggles) -> Bool {
        toggles.experiments.contains { $0.active && !$0.targeting.isEmpty }
    }

    static func groups(_ plan: VisitorPlan) -> String {
        plan.assignments.isEmpty ? "none" : plan.assignments.map { "\($0.experiment): \($0.group.name)" }.joined(separator: ", ")
    }
}
