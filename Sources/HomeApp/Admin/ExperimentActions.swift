import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ScreenKit

/// "Stop" and "Roll out this group's layout" from `/reports/experiments`: a link to a
/// confirmation page (`GET /admin/experiment`: the difference the new version makes), whose form
/// makes that version (the experiment stopped and, for a roll-out, the group's layout given to the
/// share chosen), under the same access, CSRF, note and conflict rules as every apply.
struct ExperimentActions {
    static let path = "/admin/experiment"
    let routes: AdminRoutes

    /// The links under an experiment's results; only a running experiment the toggles name has them.
    static func render(_ result: ExperimentResult, into writer: inout HTMLWriter) {
        guard result.active == true else { return }
        writer.write("<p class=\"experiment__actions\"><a")
        writer.urlAttribute("href", "\(path)?experiment=\(URLQuery.component(result.name))&action=stop")
        writer.write(">Stop this experiment…</a>")
        for group in result.groups {
            guard group.setsLayout, let layout = group.layout else { continue }
            writer.write(" · <a")
            writer.urlAttribute("href", "\(path)?experiment=\(URLQuery.component(result.name))&action=rollout&group=\(URLQuery.component(group.name))")
            writer.write(">")
            writer.text("Roll out group \(group.name)'s layout (\(layout))…")
            writer.write("</a>")
        }
        writer.write("</p>")
    }

    /// What was asked: the experiment, stop or roll out, the group and the share.
    struct Action {
        let experiment: String
        /// The share as typed, in percent.
        let rollout: (group: String, percent: Double)?
    }

    func confirmation(_ request: Request) throws(HTTPError) -> Response {
        let action = try Self.action(request.query["experiment"], request.query["action"], request.query["group"], request.query["share"])
        return try confirmation(request, action, note: "")
    }

    /// The difference the action makes and one form: for a roll-out the share is typed there, and
    /// "Show the difference" draws the page again for it, so what is applied is what was shown.
    private func confirmation(_ request: Request, _ action: Action, note: String, notice: String? = nil,
                              status: Status = .ok) throws(HTTPError) -> Response {
        let current = routes.versions.current
        let proposed = try Self.proposed(action, from: routes.services.toggles.toggles)
        return routes.page(request, title: action.rollout == nil ? "Stop \(action.experiment)" : "Roll out from \(action.experiment)",
                           section: .toggles, status: status) { [self] writer, context in
            if let notice {
                writer.write("<div class=\"admin__problem\" role=\"alert\"><p>")
                writer.text(notice)
                writer.write("</p></div>")
            }
            routes.inForce(current, into: &writer)
            writer.write("<h2>Difference from version ")
            writer.write(current.version)
            writer.write("</h2>")
            LineDiffView.render(LineDiff(from: current.text, to: proposed.jsonText), label: "Difference from the version in force", into: &writer)
            writer.write("<form class=\"admin-form\" method=\"post\"")
            writer.urlAttribute("action", Self.path)
            writer.write(">")
            writer.csrfField(context)
            Self.hidden([("base", "\(current.version)"), ("experiment", action.experiment),
                         ("action", action.rollout == nil ? "stop" : "rollout"), ("group", action.rollout?.group ?? "")], into: &writer)
            if let rollout = action.rollout {
                let percent = JSONText.number(rollout.percent)
                Self.hidden([("shown", percent)], into: &writer)
                writer.write("<div class=\"admin-form__field\"><label for=\"field-share\">Share of visitors (%)</label>")
                writer.write("<input type=\"text\" inputmode=\"decimal\" id=\"field-share\" name=\"share\" aria-describedby=\"field-share-hint\"")
                writer.attribute("value", percent)
                writer.write("><p class=\"admin-form__hint\" id=\"field-share-hint\">0 to 100; with the other layouts' rollout shares at most 100 in all. The difference above is for ")
                writer.text(percent)
                writer.write("%.</p></div>")
            }
            writer.write("<div class=\"admin-form__field\"><label for=\"field-note\">Note</label><input type=\"text\" id=\"field-note\" name=\"note\" maxlength=\"500\" required aria-describedby=\"field-note-hint\"")
            writer.attribute("value", note)
            writer.write("><p class=\"admin-form__hint\" id=\"field-note-hint\">Required: why, for the history.</p></div>")
            writer.write("<div class=\"admin-form__actions\">")
            if action.rollout != nil {
                writer.write("<button class=\"button button--secondary\" type=\"submit\" name=\"step\" value=\"show\" formnovalidate>Show the difference for this share</button>")
            }
            writer.write("<button class=\"button button--primary\" type=\"submit\">")
            writer.text(action.rollout == nil ? "Stop the experiment" : "Roll out and stop the experiment")
            writer.write("</button></div></form>")
        }
    }

    /// The confirmation's fields, carried from its address to the post.
    private static func hidden(_ fields: [(String, String)], into writer: inout HTMLWriter) {
        for (name, value) in fields {
            writer.hiddenField(name, value)
        }
    }

    func apply(_ request: Request) throws(HTTPError) -> Response {
        let form = request.form
        let share = form["share"].flatMap { $0.isEmpty ? nil : $0 }
        let action = try Self.action(form["experiment"], form["action"], form["group"], share)
        if form["step"] == "show" { return try confirmation(request, action, note: form["note"] ?? "") }
        if let rollout = action.rollout, let shown = form["shown"].flatMap({ Double($0.trimmingWhitespace()) }),
           shown != rollout.percent {
            return try confirmation(request, action, note: form["note"] ?? "", notice: """
                Nothing was applied: the share was changed to \(JSONText.number(rollout.percent))% after the difference was \
                drawn for \(JSONText.number(shown))%. Below is the difference for \(JSONText.number(rollout.percent))%; \
                roll out again to apply it.
                """, status: .conflict)
        }
        let note = try AdminNote.from(form)
        guard !note.isEmpty else { throw HTTPError(.badRequest, "Write a note: why, for the history. Nothing was applied.") }
        let base = try AdminBase.from(form)
        let proposed = try Self.proposed(action, from: routes.services.toggles.toggles)
        switch routes.versions.apply(proposed.jsonText, base: base, who: routes.who(request), note: note) {
        case .applied(let entry): return routes.services.visit(request).redirect(to: "/admin?applied=\(entry.version)")
        case .unchanged: return routes.services.visit(request).redirect(to: "/admin?unchanged")
        case .conflict(let current):
            // Drawn again over the version in force, note kept: what confirming now would make.
            return try confirmation(request, action, note: note, notice: "Nothing was applied: the toggles changed since the "
                                    + "confirmation was drawn (version \(current.version) is in force now). Below is the "
                                    + "difference from it; confirm again to apply it.", status: .conflict)
        case .invalid(let error):
            throw HTTPError(.badRequest, "Nothing was applied: \(error.field.map { $0 + " " } ?? "")\(error.reason)")
        case .failed(let message):
            throw HTTPError(.serviceUnavailable, message)
        }
    }

    /// `share` in percent (default 100).
    static func action(_ experiment: String?, _ kind: String?, _ group: String?, _ share: String?) throws(HTTPError) -> Action {
        guard let experiment, !experiment.isEmpty else { throw HTTPError(.badRequest, "Name the experiment.") }
        switch kind {
        case "stop": return Action(experiment: experiment, rollout: nil)
        case "rollout":
            guard let group, !group.isEmpty else { throw HTTPError(.badRequest, "Name the group whose layout is rolled out.") }
            let percent = share.map { TypedNumber.decimal($0.trimmingWhitespace()) } ?? 100
            guard let percent, percent.isFinite, (0...100).contains(percent) else {
                throw HTTPError(.badRequest, "The share must be a number from 0 to 100.")
            }
            return Action(experiment: experiment, rollout: (group, percent))
        default: throw HTTPError(.badRequest, "The action must be stop or rollout.")
        }
    }

    /// The toggles with the experiment stopped and, for a roll-out, its group's layout at the share.
    static func proposed(_ action: Action, from toggles: Toggles) throws(HTTPError) -> Toggles {
        var proposed = toggles
        guard let index = proposed.experiments.firstIndex(where: { $0.name == action.experiment }) else {
            throw HTTPError(.notFound, "The toggles have no experiment called \(action.experiment).")
        }
        guard proposed.experiments[index].active else { throw HTTPError(.conflict, "The experiment \(action.experiment) is stopped already.") }
        proposed.experiments[index].active = false
        if let rollout = action.rollout {
            guard let group = proposed.experiments[index].groups.first(where: { $0.name == rollout.group }), let layout = group.layout else {
                throw HTTPError(.notFound, "The experiment \(action.experiment) has no group \(rollout.group) with a layout.")
            }
            proposed.rollout[layout] = rollout.percent > 0 ? rollout.percent / 100 : nil
        }
        return proposed
    }
}
