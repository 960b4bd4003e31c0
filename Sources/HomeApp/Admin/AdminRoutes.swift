import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ScreenKit

/// `/admin`: the toggles as a form, reviewed (difference and preview) and applied as a new
/// version; `/admin/history`: every version, with rollback. Behind the report pages' access
/// check (the caller's group) and, for posts, the CSRF check. The work runs on the admin pool:
/// an apply writes and syncs files.
struct AdminRoutes {
    let services: AppServices
    let versions: ToggleVersions
    let content: ContentVersions
    let access: ReportsAccess
    let pool: RequestPool
    /// The split each experiment last ran with: the review warns of a proposal that moves its visitors.
    let splitChanges: SplitChanges

    func register(in router: inout Router) {
        router.get("/admin") { request in try pool.respond { [self] in togglesPage(request) } }
        for kind in [AdminHistory.Kind.toggles, .content] {
            let history = AdminHistory(routes: self, kind: kind)
            router.get(history.path) { request in try pool.respond { history.page(request) } }
        }
        let experiments = ExperimentActions(routes: self)
        router.get(ExperimentActions.path) { request in try pool.respond { try experiments.confirmation(request) } }
        let catalogue = AdminContent(routes: self)
        router.get(AdminContent.path) { request in try pool.respond { catalogue.page(request) } }
        router.get(AdminContent.downloadPath) { _ in try pool.respond { catalogue.download() } }
        let instances = InstancesFragment(routes: self)
        router.get(InstancesFragment.path) { request in try pool.respond { try instances.response(request) } }
        let qaLinks = AdminQALinks(routes: self)
        router.get(AdminQALinks.path) { request in try pool.respond { qaLinks.page(request) } }
        router.group(services.csrf.middleware) { posts in
            posts.post("/admin/toggles") { request in try pool.respond { [self] in try post(request) } }
            for kind in [AdminHistory.Kind.toggles, .content] {
                let history = AdminHistory(routes: self, kind: kind)
                posts.post(history.rollbackPath) { request in try pool.respond { try history.rollback(request) } }
            }
            posts.post(AdminContent.path) { request in try pool.respond { try catalogue.post(request) } }
            posts.post(ExperimentActions.path) { request in try pool.respond { try experiments.apply(request) } }
            posts.post(AdminQALinks.path) { request in try pool.respond { try qaLinks.post(request) } }
        }
    }

    var layouts: [String] { services.factory.names }

    /// Who made a change: the operator's credential, as far as the server knows them.
    func who(_ request: Request) -> String {
        guard access.token != nil else { return "loopback" }
        return ReportsAccess.bearer(in: request) != nil ? "token" : "sign-in"
    }

    /// A page drawn for a post (a review, a conflict, a refusal) is kept by the browser alone, so
    /// Back from the page after it shows it again, to apply once more or correct; kept nowhere,
    /// Back is the browser's error page. Every other admin page is kept nowhere.
    func page(_ request: Request, title: String, section: AdminSection, status: Status = .ok,
              body: @escaping (inout HTMLWriter, RenderContext) -> Void) -> Response {
        services.visit(request).page(AdminScreen(viewModel: AdminPage(title: title, section: section, body: body,
                                                                      signedIn: access.hasValidCookie(request))),
                                     status: status, caching: request.method == .post ? .visitor : .nowhere,
                                     configuration: services.operatorPage)
    }

    /// The form for the version in force; with `?kept`, drawn from the edit this instance kept
    /// aside at start (with a database), to review and apply it as a change.
    func togglesPage(_ request: Request) -> Response {
        let current = versions.current
        var form = TogglesForm(toggles: services.toggles.toggles, base: current.version)
        var keptNote: String?
        if request.query["kept"] != nil, let path = versions.status.snapshot.kept {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                form = TogglesForm(toggles: try Toggles(json: data, file: path, layouts: layouts), base: current.version)
                keptNote = "The form below holds the edit kept in \(path), drawn over version \(current.version): review it to apply it."
            } catch {
                keptNote = "The kept edit cannot be drawn as a form: \(ErrorText.describe(error)). The form below is the version in force."
            }
        }
        let notice = AppliedNotice(request)
        return page(request, title: "Toggles", section: .toggles) { [self] writer, context in
            notice.render(current: current, history: versions.history, into: &writer)
            if let keptNote {
                writer.write("<p class=\"admin__notice\" data-kept-form>")
                writer.text(keptNote)
                writer.write("</p>")
            }
            inForce(current, into: &writer)
            if let problem = versions.document.fileProblem {
                writer.write("<p class=\"admin__problem\" role=\"alert\" data-file-problem>The toggles file has an edit the server refused: ")
                writer.text(problem.description)
                writer.write(". The version in force stays; an apply from here replaces the file and keeps the edit beside it.</p>")
            }
            if let next = services.toggles.toggles.nextRampStep {
                writer.write("<p class=\"admin__notice\" data-next-ramp-step>Next ramp step: ")
                writer.text("\(next.layout) to \(JSONText.number(next.step.share * 100))% at \(AdminHistory.format(next.step.at))")
                writer.write(".</p>")
            }
            AdminInstances(versions).render(into: &writer)
            interplay(services.toggles.toggles, into: &writer)
            TogglesFormView(form: form, layouts: layouts).render(into: &writer, context: context)
        }
    }

    /// "Review" shows the difference and a preview; "Apply" makes the form the next version.
    func post(_ request: Request) throws(HTTPError) -> Response {
        _ = try AdminNote.from(request.form)
        _ = try AdminBase.from(request.form)
        let form = TogglesForm(request.form, layouts: layouts)
        let current = versions.current
        guard form.base == current.version else { return conflict(request, form: form, current: current) }
        if let problem = form.shareProblem ?? form.weightProblem { return invalid(request, form: form, error: problem) }
        let proposed: Toggles
        do {
            proposed = try Toggles(json: Data(form.json.utf8), file: "toggles", layouts: layouts)
        } catch {
            return invalid(request, form: form, error: error)
        }
        // Any other text would be hashed as an id all the same, and preview a visitor nobody is.
        if !form.previewVisitor.isEmpty, VisitorID(form.previewVisitor) == nil {
            return page(request, title: "Toggles", section: .toggles, status: .badRequest) { [self] writer, context in
                TogglesFormView(form: form, layouts: layouts, problem: .init(field: "previewVisitor", message:
                    "must be a whole visitor id, 32 hexadecimal digits as in the visitor's cookie (the report log shows "
                    + "the first 8: follow one to see the whole id)")).render(into: &writer, context: context)
            }
        }
        let isApply = request.form["action"] == "apply"
        if isApply, !form.note.isEmpty {
            switch versions.apply(form.json, base: form.base, who: who(request), note: form.note) {
            case .applied(let entry): return services.visit(request).redirect(to: "/admin?applied=\(entry.version)")
            case .unchanged: return services.visit(request).redirect(to: "/admin?unchanged")
            case .conflict(let newer): return conflict(request, form: form, current: newer)
            case .invalid(let error): return invalid(request, form: form, error: error)
            case .failed(let message):
                // The form comes back as sent, note included, to apply again once the cause is gone.
                var response = page(request, title: "Not applied", section: .toggles, status: .serviceUnavailable) { [self] writer, context in
                    writer.write("<p class=\"admin__problem\" role=\"alert\">")
                    writer.text(message)
                    writer.write("</p><p>Your form is below as you sent it: apply it again when the cause is gone.</p>")
                    TogglesFormView(form: form, layouts: layouts, offersApply: true).render(into: &writer, context: context)
                }
                response.headers.set("Retry-After", "5")
                return response
            }
        }
        return page(request, title: "Review the change", section: .toggles, status: isApply ? .badRequest : .ok) { [self] writer, context in
            inForce(current, into: &writer)
            writer.write("<h2>Difference from version ")
            writer.write(current.version)
            writer.write("</h2>")
            LineDiffView.render(LineDiff(from: current.text, to: proposed.jsonText), label: "Difference from the version in force",
                                into: &writer)
            interplay(proposed, into: &writer)
            // The toggles in force taken last: the history's newest version again, or the file before
            // the history has one.
            var splits = splitChanges.current()
            splits.take(services.toggles.toggles, version: current.version)
            for warning in proposed.reassignmentWarnings(after: splits) {
                writer.write("<p class=\"admin__notice\" data-reassign>Note: ")
                writer.text(warning)
                writer.write(".</p>")
            }
            if !form.previewVisitor.isEmpty {
                AdminPreview(visitor: form.previewVisitor, before: services.toggles.toggles, after: proposed)
                    .render(into: &writer)
            }
            TogglesFormView(form: form, layouts: layouts, offersApply: true, noteMissing: isApply).render(into: &writer, context: context)
        }
    }

    /// `form`'s own changes against the version it was drawn from, made to the version in force
    /// instead; nil when any of the three will not load.
    func rebased(_ form: TogglesForm, from drawnFrom: ConfigHistory.Entry?, onto current: ConfigHistory.Entry) -> Toggles? {
        let load = { (text: String) in try? Toggles(json: Data(text.utf8), file: "toggles", layouts: layouts) }
        let value = { (toggles: Toggles) in try? JSONValue(reading: Data(toggles.jsonText.utf8)) }
        guard let drawnFrom, let base = load(drawnFrom.text).flatMap(value), let mine = load(form.json).flatMap(value),
              let theirs = load(current.text).flatMap(value)
        else { return nil }
        return load(JSONMerge.merge(base: base, mine: mine, theirs: theirs).text)
    }

    /// A rule of the loader fails: the form again, as typed, the message beside its field; 400.
    func invalid(_ request: Request, form: TogglesForm, error: TogglesError) -> Response {
        let error = form.inPercent(error)
        return page(request, title: "Toggles", section: .toggles, status: .badRequest) { [self] writer, context in
            TogglesFormView(form: form, layouts: layouts,
                            problem: .init(field: form.formField(for: error.field), message: error.reason))
                .render(into: &writer, context: context)
        }
    }

    /// The form was drawn from an older version: what changed since, what this form would change,
    /// and the form again: the version in force with this form's own changes; 409.
    func conflict(_ request: Request, form: TogglesForm, current: ConfigHistory.Entry) -> Response {
        let drawnFrom = versions.history.entry(form.base)
        let asSent = (try? Toggles(json: Data(form.json.utf8), file: "toggles", layouts: layouts))?.jsonText
        // The same form sent twice (a double press, or again after Back): its change is in force.
        if asSent == current.text { return services.visit(request).redirect(to: "/admin?unchanged") }
        var redrawn = form
        var proposed = asSent
        if let merged = rebased(form, from: drawnFrom, onto: current) {
            redrawn = TogglesForm(toggles: merged, base: current.version)
            redrawn.note = form.note
            redrawn.previewVisitor = form.previewVisitor
            proposed = merged.jsonText
        }
        redrawn.base = current.version
        return page(request, title: "Changed since your form", section: .toggles, status: .conflict) { [self] writer, context in
            writer.write("<div class=\"admin__problem\" role=\"alert\"><p>Nothing was applied: your form was drawn from version ")
            writer.write(form.base)
            writer.write(", and version ")
            writer.write(current.version)
            writer.write(" is in force now.</p></div>")
            inForce(current, into: &writer)
            if let drawnFrom {
                writer.write("<h2>What changed since your form</h2>")
                LineDiffView.render(LineDiff(from: drawnFrom.text, to: current.text), label: "Changes since your form", into: &writer)
            }
            if let proposed {
                writer.write("<h2>What your form would change now</h2>")
                LineDiffView.render(LineDiff(from: current.text, to: proposed), label: "Your changes against the version in force",
                                    into: &writer)
            }
            writer.write("<p>The form below is version ")
            writer.write(current.version)
            writer.write(" with your changes made to it: review it again to apply them.</p>")
            TogglesFormView(form: redrawn, layouts: layouts).render(into: &writer, context: context)
        }
    }

    /// What the loader logs of these toggles and accepts all the same (a rollout that waits for a
    /// layout experiment's visitors), said where the change is made too.
    func interplay(_ toggles: Toggles, into writer: inout HTMLWriter) {
        for warning in toggles.interplayWarnings {
            writer.write("<p class=\"admin__notice\" data-interplay>Note: ")
            writer.text(warning)
            writer.write(".</p>")
        }
    }

    func inForce(_ entry: ConfigHistory.Entry, into writer: inout HTMLWriter) {
        inForce(entry, versions: versions, historyPath: AdminSection.history.path, into: &writer)
    }

    /// "Version N, applied <time> by <who>: <note>", and the files set aside, if any.
    func inForce<Document>(_ entry: ConfigHistory.Entry, versions: ConfigVersions<Document>, historyPath: String,
                           into writer: inout HTMLWriter) {
        let history = versions.history
        writer.write("<p class=\"admin__version\" data-version=\"")
        writer.write(entry.version)
        writer.write("\">In force: version ")
        writer.write(entry.version)
        writer.write(", ")
        AdminHistory.describe(ConfigHistory.Summary(version: entry.version, time: entry.time, who: entry.who, note: entry.note),
                              into: &writer)
        writer.write(". <a")
        writer.urlAttribute("href", historyPath)
        writer.write(">History</a></p>")
        let damaged = history.damaged
        if !damaged.isEmpty {
            writer.write("<p class=\"admin__problem\" role=\"alert\">")
            writer.write(damaged.count)
            writer.write(damaged.count == 1 ? " version file could not be read and was set aside: " : " version files could not be read and were set aside: ")
            writer.text(damaged.joined(separator: ", "))
            writer.write(" (in ")
            writer.text(history.folder)
            writer.write(").</p>")
        }
        if let restored = versions.restored {
            writer.write("<p class=\"admin__problem\" role=\"alert\" data-restored>")
            writer.text(restored)
            writer.write("</p>")
        }
    }
}
