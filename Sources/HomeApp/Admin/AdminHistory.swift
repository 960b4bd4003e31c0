import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ScreenKit

/// `/admin/history` and `/admin/content/history`: the toggles' or the catalogue's versions,
/// newest first, each with its difference from the one before and a rollback form (a new version
/// equal to it, under the same conflict rule as an apply).
struct AdminHistory {
    enum Kind { case toggles, content }

    /// Versions shown, newest first (each diff reads two version files).
    static let shown = 50
    let routes: AdminRoutes
    let kind: Kind

    var section: AdminSection { kind == .toggles ? .history : .contentHistory }
    var path: String { section.path }
    var rollbackPath: String { Self.rollbackPath(kind) }

    static func rollbackPath(_ kind: Kind) -> String { kind == .toggles ? "/admin/toggles/rollback" : "/admin/content/rollback" }

    /// The page an operator's refused post came from, for the error page's link back; nil: `/admin`.
    static func origin(ofPost path: some StringProtocol) -> (title: String, url: String)? {
        switch String(path) {
        case rollbackPath(.toggles): ("Back to the toggles' history", AdminSection.history.path)
        case rollbackPath(.content): ("Back to the catalogue's history", AdminSection.contentHistory.path)
        case AdminContent.path: ("Back to the catalogue", AdminContent.path)
        default: nil
        }
    }
    var history: ConfigHistory { kind == .toggles ? routes.versions.history : routes.content.history }
    var current: ConfigHistory.Entry { kind == .toggles ? routes.versions.current : routes.content.current }

    /// A rollback the database refused: why, which version, and the note to send again.
    struct Refusal {
        let message: String
        let version: Int
        let note: String
    }

    /// The history; with `refusal`, drawn again for the refused rollback (503), its note kept in
    /// its form, to roll back once the cause is gone.
    func page(_ request: Request, refusal: Refusal? = nil) -> Response {
        let history = self.history
        let all = history.all
        let current = self.current
        let notice = AppliedNotice(request)
        let recent = Array(all.suffix(Self.shown).reversed())
        var texts: [Int: String] = [:]
        for summary in recent {
            for version in [summary.version, previous(of: summary.version, in: all)].compactMap({ $0 }) where texts[version] == nil {
                texts[version] = history.entry(version)?.text
            }
        }
        var response = routes.page(request, title: refusal == nil ? section.label : "Not rolled back", section: section,
                                   status: refusal == nil ? .ok : .serviceUnavailable) { [self] writer, context in
            if let refusal {
                writer.write("<p class=\"admin__problem\" role=\"alert\">")
                writer.text(refusal.message)
                writer.write("</p><p>Your note is kept in the form of version ")
                writer.write(refusal.version)
                writer.write(": roll back again when the cause is gone.</p>")
            }
            notice.render(current: current, history: history, into: &writer)
            writer.write(kind == .toggles ? "<p>Every version of the toggles, from the admin pages or edits of the file. "
                         : "<p>Every version of the catalogue, from uploads or edits of the file. ")
            if all.count > Self.shown {
                writer.write("The newest ")
                writer.write(Self.shown)
                writer.write(" of ")
                writer.write(all.count)
                writer.write(" are shown.")
            }
            writer.write("</p><ol class=\"admin-history\" reversed>")
            for summary in recent {
                writer.write("<li class=\"admin-history__version\"")
                writer.attribute("id", "version-\(summary.version)")
                writer.attribute("value", summary.version)
                writer.write("><h2>Version ")
                writer.write(summary.version)
                if summary.version == current.version { writer.write(" (in force)") }
                writer.write("</h2><p>")
                Self.describe(summary, into: &writer)
                writer.write("</p>")
                if let text = texts[summary.version] {
                    let before = previous(of: summary.version, in: all).flatMap { texts[$0] } ?? ""
                    if kind == .content, let diff = ContentDiff(from: before.isEmpty ? #"{"items": []}"# : before, to: text) {
                        diff.render(into: &writer)
                    } else {
                        LineDiffView.render(LineDiff(from: before, to: text), label: "Changes in version \(summary.version)", into: &writer)
                    }
                }
                if summary.version != current.version {
                    rollbackForm(summary.version, base: current.version,
                                 note: refusal.flatMap { $0.version == summary.version ? $0.note : nil }, into: &writer, context: context)
                }
                writer.write("</li>")
            }
            writer.write("</ol>")
        }
        if refusal != nil { response.headers.set("Retry-After", "5") }
        return response
    }

    func rollback(_ request: Request) throws(HTTPError) -> Response {
        guard let version = request.form["version"].flatMap({ Int($0) }), let base = request.form["base"].flatMap({ Int($0) }) else {
            throw HTTPError(.badRequest, "A rollback names the version to go back to and the version in force.")
        }
        let note = try AdminNote.from(request.form)
        guard !note.isEmpty else { throw HTTPError(.badRequest, "Write a note to roll back: why, for the history.") }
        if kind == .content { return try rollbackContent(request, to: version, base: base, note: note) }
        guard let outcome = routes.versions.rollback(to: version, base: base, who: routes.who(request),
                                                      note: note) else {
            throw HTTPError(.notFound, "There is no version \(version) of the toggles.")
        }
        switch outcome {
        case .applied(let entry): return routes.services.visit(request).redirect(to: "\(path)?applied=\(entry.version)")
        case .unchanged: return routes.services.visit(request).redirect(to: "/admin?unchanged")
        case .conflict(let current):
            guard let old = routes.versions.history.entry(version),
                  let toggles = try? Toggles(json: Data(old.text.utf8), file: "toggles", layouts: nil) else {
                throw HTTPError(.conflict, "Version \(current.version) was applied since this page was drawn; reload it.")
            }
            var form = TogglesForm(toggles: toggles, base: base)
            form.note = note
            return routes.conflict(request, form: form, current: current)
        case .invalid(let error):
            throw HTTPError(.badRequest, "Version \(version) cannot be applied any more: \(error.field.map { $0 + " " } ?? "")\(error.reason)")
        case .failed(let message):
            return page(request, refusal: Refusal(message: message, version: version, note: note))
        }
    }

    private func rollbackContent(_ request: Request, to version: Int, base: Int, note: String) throws(HTTPError) -> Response {
        guard let outcome = routes.content.rollback(to: version, base: base, who: routes.who(request), note: note) else {
            throw HTTPError(.notFound, "There is no version \(version) of the catalogue.")
        }
        switch outcome {
        case .applied(let entry): return routes.services.visit(request).redirect(to: "\(path)?applied=\(entry.version)")
        case .unchanged: return routes.services.visit(request).redirect(to: path)
        case .conflict(let current):
            throw HTTPError(.conflict, "Nothing was rolled back: version \(current.version) of the catalogue was applied after this page was drawn from version \(base). Reload the history and try again.")
        case .invalid(let error):
            throw HTTPError(.badRequest, "Version \(version) cannot be applied any more: \(error)")
        case .failed(let message):
            return page(request, refusal: Refusal(message: message, version: version, note: note))
        }
    }

    private func previous(of version: Int, in all: [ConfigHistory.Summary]) -> Int? {
        all.last { $0.version < version }?.version
    }

    private func rollbackForm(_ version: Int, base: Int, note: String?, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<form class=\"admin-history__rollback\" method=\"post\"")
        writer.urlAttribute("action", rollbackPath)
        writer.write(">")
        writer.csrfField(context)
        writer.hiddenField("version", version)
        writer.hiddenField("base", base)
        writer.write("<label")
        writer.attribute("for", "rollback-note-\(version)")
        writer.write(">Note</label><input type=\"text\" name=\"note\" required maxlength=\"500\"")
        writer.attribute("id", "rollback-note-\(version)")
        if let note { writer.attribute("value", note) }
        writer.write("><button class=\"button button--secondary\" type=\"submit\">Roll back to version ")
        writer.write(version)
        writer.write("</button></form>")
    }

    /// "<time> by <who>: <note>".
    static func describe(_ summary: ConfigHistory.Summary, into writer: inout HTMLWriter) {
        writer.write("<time")
        writer.attribute("datetime", summary.time.formatted(.iso8601))
        writer.write(">")
        writer.text(Self.format(summary.time))
        writer.write("</time> by <span class=\"admin__who\">")
        writer.text(summary.who)
        writer.write("</span>")
        if !summary.note.isEmpty {
            writer.write(": ")
            writer.text(summary.note)
        }
    }

    static func format(_ time: Date) -> String {
        // `2026-11-27T14:05:00Z` read as `2026-11-27 14:05:00 UTC`.
        time.formatted(.iso8601).dropLast().replacing("T", with: " ") + " UTC"
    }
}
