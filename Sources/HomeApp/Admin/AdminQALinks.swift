import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ScreenKit

/// `/admin/qa`: make a QA link. Choose a running experiment's group or a layout and how long the
/// link lasts (1 hour to 7 days); the response is the signed link. Whoever opens it gets that group
/// or layout until it expires, a banner on every page, and events left out of experiment results.
struct AdminQALinks {
    static let path = "/admin/qa"
    let routes: AdminRoutes

    private var services: AppServices { routes.services }

    func page(_ request: Request) -> Response {
        routes.page(request, title: "QA links", section: .qa) { [self] writer, context in
            form(into: &writer, context: context)
        }
    }

    func post(_ request: Request) throws(HTTPError) -> Response {
        guard let chosen = try request.form.single("force"), let forced = Self.override(chosen, toggles: services.toggles.toggles,
                                                                             layouts: routes.layouts) else {
            throw HTTPError(.badRequest, "Choose a group of a running experiment, or a layout, to force.")
        }
        guard let seconds = try request.form.single("lifetime").flatMap(Int.init),
              QAOverride.lifetimes.contains(where: { $0.seconds == seconds }) else {
            throw HTTPError(.badRequest, "Choose how long the link lasts: "
                            + QAOverride.lifetimes.map(\.label).joined(separator: ", ") + ".")
        }
        let override = QAOverride(forced: forced, expiry: Int(Date().timeIntervalSince1970) + seconds)
        let token = override.token(signedWith: services.csrf)
        let path = QAOverride.openPath + "?" + QAOverride.tokenField + "=" + token
        let scheme = request.isHTTPS ? "https://" : "http://"
        let link = request.headers["Host"].map { scheme + $0 + path } ?? path
        return routes.page(request, title: "QA link", section: .qa) { [self] writer, context in
            writer.write("<p class=\"admin__notice\" role=\"status\">This link forces ")
            writer.text(override.summary)
            writer.write(" for whoever opens it, until ")
            writer.text(override.expiryText)
            writer.write(". Their events carry <code>qa=1</code> and are left out of experiment results.</p>")
            writer.write("<div class=\"admin-form__field\"><label for=\"qa-link\">The link</label><input type=\"text\" id=\"qa-link\" readonly data-qa-link")
            writer.attribute("value", link)
            writer.write("></div><p><a")
            writer.urlAttribute("href", path)
            writer.write(">Open it here</a></p><h2>Another link</h2>")
            form(into: &writer, context: context)
        }
    }

    /// `experiment:<name>/<group>` or `layout:<name>`, when it names what runs now.
    static func override(_ value: String, toggles: Toggles, layouts: [String]) -> VisitorPlan.Override? {
        if value.hasPrefix("layout:") {
            let layout = String(value.dropFirst("layout:".count))
            return layouts.contains(layout) ? .layout(layout) : nil
        }
        guard value.hasPrefix("experiment:"), let slash = value.firstIndex(of: "/") else { return nil }
        let experiment = String(value[value.index(value.startIndex, offsetBy: "experiment:".count)..<slash])
        let group = String(value[value.index(after: slash)...])
        guard toggles.activeExperiments.contains(where: { $0.name == experiment && $0.groups.contains { $0.name == group } })
        else { return nil }
        return .group(experiment: experiment, group: group)
    }

    private func form(into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<form class=\"admin-form\" method=\"post\"")
        writer.urlAttribute("action", Self.path)
        writer.write(">")
        writer.csrfField(context)
        writer.write("<div class=\"admin-form__field\"><label for=\"qa-force\">Force</label><select id=\"qa-force\" name=\"force\" aria-describedby=\"qa-force-hint\">")
        for experiment in services.toggles.toggles.activeExperiments {
            writer.write("<optgroup")
            writer.attribute("label", "Experiment \(experiment.name)")
            writer.write(">")
            for group in experiment.groups {
                writer.write("<option")
                writer.attribute("value", "experiment:\(experiment.name)/\(group.name)")
                writer.write(">")
                writer.text("\(experiment.name): group \(group.name)" + (group.layout.map { " (\($0))" } ?? ""))
                writer.write("</option>")
            }
            writer.write("</optgroup>")
        }
        writer.write("<optgroup label=\"Layouts\">")
        for layout in routes.layouts {
            writer.write("<option")
            writer.attribute("value", "layout:\(layout)")
            writer.write(">")
            writer.text("The \(layout) layout")
            writer.write("</option>")
        }
        writer.write("</optgroup></select><p class=\"admin-form__hint\" id=\"qa-force-hint\">A group of a running experiment (its layout and notice follow), or a layout whatever the visitor chose.</p></div><div class=\"admin-form__field\"><label for=\"qa-lifetime\">Lasts</label><select id=\"qa-lifetime\" name=\"lifetime\">")
        for lifetime in QAOverride.lifetimes {
            writer.write("<option")
            writer.attribute("value", lifetime.seconds)
            writer.attribute("selected", if: lifetime.seconds == 3600)
            writer.write(">")
            writer.text(lifetime.label)
            writer.write("</option>")
        }
        writer.write("</select></div><div class=\"admin-form__actions\"><button class=\"button button--primary\" type=\"submit\">Make the link</button></div></form>")
    }
}
