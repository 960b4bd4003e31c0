import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ScreenKit

/// `/admin/content`: the catalogue replaced by an upload, checked as at start (the same
/// messages, at most the same 4 MiB: 413 over it), reviewed as items added, removed and changed,
/// and applied with a note as the next version.
struct AdminContent {
    static let path = "/admin/content"
    /// The catalogue in force as a file, to edit and upload again.
    static let downloadPath = "/admin/content/catalogue.json"
    /// The upload's body: the largest content file and room for the form's other parts.
    static let bodyLimit = ContentCatalog.maximumFileBytes + 64 * 1024
    let routes: AdminRoutes
    let staged: StagedUploads

    init(routes: AdminRoutes) {
        self.routes = routes
        staged = StagedUploads(database: routes.content.database)
    }

    var versions: ContentVersions { routes.content }

    func page(_ request: Request) -> Response {
        let current = versions.current
        let notice = AppliedNotice(request)
        return routes.page(request, title: "Catalogue", section: .content) { [self] writer, context in
            notice.render(current: current, history: versions.history, into: &writer)
            routes.inForce(current, versions: versions, historyPath: AdminSection.contentHistory.path, into: &writer)
            writer.write("<p>")
            writer.write(versions.document.store.catalog.items.count)
            writer.write(" items in force. <a")
            writer.urlAttribute("href", Self.downloadPath)
            writer.write(" download data-download>Download version ")
            writer.write(current.version)
            writer.write("</a> to edit it and upload it below.</p>")
            AdminInstances(versions).render(into: &writer)
            uploadForm(base: current.version, into: &writer, context: context)
        }
    }

    /// The version in force, as its file holds it; named after its number.
    func download() -> Response {
        let current = versions.current
        return Response(headers: Headers([("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
                                          ("Content-Disposition", "attachment; filename=\"content-v\(current.version).json\"")]),
                        body: .bytes(Array(current.text.utf8)))
    }

    func post(_ request: Request) throws(HTTPError) -> Response {
        let current = versions.current
        let base = try AdminBase.from(request.form)
        let note = try AdminNote.from(request.form)
        let upload = try self.upload(request)
        guard base == current.version else {
            // The same upload sent twice: its catalogue is in force.
            if upload.text == current.text { return routes.services.visit(request).redirect(to: "\(Self.path)?unchanged") }
            return conflict(request, base: base, current: current, upload: upload, note: note)
        }
        do throws(ContentCatalogError) {
            _ = try CatalogueDocument.validate(upload.text, store: versions.document.store)
        } catch {
            let message = ContentCatalogError(file: upload.filename, itemIndex: error.itemIndex, itemID: error.itemID, field: error.field,
                                              problem: error.problem).description
            return routes.page(request, title: "Catalogue", section: .content, status: .badRequest) { [self] writer, context in
                writer.write("<div class=\"admin__problem\" role=\"alert\"><p>Nothing was applied: ")
                writer.text(message)
                writer.write("</p></div>")
                uploadForm(base: current.version, into: &writer, context: context)
            }
        }
        let isApply = request.form["action"] == "apply"
        var refusal: String?
        if isApply, !note.isEmpty {
            switch versions.apply(upload.text, base: base, who: routes.who(request), note: note) {
            case .applied(let entry):
                if let id = request.form["staged"] { staged.remove(id) }
                return routes.services.visit(request).redirect(to: "\(Self.path)?applied=\(entry.version)")
            case .unchanged:
                return routes.services.visit(request).redirect(to: "\(Self.path)?unchanged")
            case .conflict(let newer):
                return conflict(request, base: base, current: newer, upload: upload, note: note)
            case .invalid(let error):
                throw HTTPError(.badRequest, "Nothing was applied: \(error)")
            case .failed(let message):
                // The review comes back, the upload and the note kept, to apply again once the cause is gone.
                refusal = message
            }
        }
        let id = request.form["staged"] ?? staged.stage(upload.text, filename: upload.filename)
        let status: Status = refusal != nil ? .serviceUnavailable : isApply ? .badRequest : .ok
        var response = routes.page(request, title: refusal != nil ? "Not applied" : "Review the catalogue", section: .content,
                                   status: status) { [self] writer, context in
            if let refusal {
                writer.write("<p class=\"admin__problem\" role=\"alert\">")
                writer.text(refusal)
                writer.write("</p><p>Your upload and note are kept below: apply them again when the cause is gone.</p>")
            }
            routes.inForce(current, versions: versions, historyPath: AdminSection.contentHistory.path, into: &writer)
            writer.write("<h2>Difference from version ")
            writer.write(current.version)
            writer.write("</h2>")
            if let diff = ContentDiff(from: current.text, to: upload.text) {
                diff.render(into: &writer)
            } else {
                LineDiffView.render(LineDiff(from: current.text, to: upload.text), label: "Difference from the version in force", into: &writer)
            }
            stagedForm(base: current.version, staged: id, into: &writer, context: context)
            noteField(isApply && refusal == nil ? nil : note, into: &writer)
            writer.write("<div class=\"admin-form__actions\"><button class=\"button button--primary\" type=\"submit\" name=\"action\" value=\"apply\">Apply</button></div></form>")
        }
        if refusal != nil { response.headers.set("Retry-After", "5") }
        return response
    }

    /// The uploaded file, or the staged upload a review page names.
    private func upload(_ request: Request) throws(HTTPError) -> (text: String, filename: String) {
        if let id = request.form["staged"] {
            guard let upload = staged.upload(id) else {
                throw HTTPError(.badRequest, "That upload is no longer kept (after 30 minutes, or four newer uploads). Upload the file again.")
            }
            return upload
        }
        guard let file = request.form.file("catalogue"), !file.bytes.isEmpty else {
            throw HTTPError(.badRequest, "Choose a content file to upload.")
        }
        // The name only labels the loader's messages: a direction override in it would turn them around.
        let shown = (file.filename ?? "upload").unicodeScalars.filter { !$0.isInvisibleControl }
        let name = String(String(String.UnicodeScalarView(shown)).prefix(100))
        guard file.bytes.count <= ContentCatalog.maximumFileBytes else {
            throw HTTPError(.payloadTooLarge, ContentCatalogError(file: name, problem: "is larger than the \(ContentCatalog.maximumFileBytes / (1024 * 1024)) MiB a content file may have").description)
        }
        guard let text = String(validating: file.bytes, as: UTF8.self) else {
            throw HTTPError(.badRequest, ContentCatalogError(file: name, problem: "is not UTF-8 text").description)
        }
        return (text, name)
    }

    /// Nothing applied: what changed since the form was drawn, and the upload and note kept, to
    /// review against the version in force without choosing the file again.
    private func conflict(_ request: Request, base: Int, current: ConfigHistory.Entry,
                          upload: (text: String, filename: String), note: String) -> Response {
        let drawnFrom = versions.history.entry(base)
        let id = request.form["staged"] ?? staged.stage(upload.text, filename: upload.filename)
        return routes.page(request, title: "Changed since your form", section: .content, status: .conflict) { [self] writer, context in
            writer.write("<div class=\"admin__problem\" role=\"alert\"><p>Nothing was applied: your form was drawn from version ")
            writer.write(base)
            writer.write(", and version ")
            writer.write(current.version)
            writer.write(" is in force now.</p></div>")
            if let drawnFrom, let diff = ContentDiff(from: drawnFrom.text, to: current.text) {
                writer.write("<h2>What changed since your form</h2>")
                diff.render(into: &writer)
            }
            stagedForm(base: current.version, staged: id, into: &writer, context: context)
            writer.hiddenField("note", note)
            writer.write("<div class=\"admin-form__actions\"><button class=\"button button--primary\" type=\"submit\" name=\"action\" value=\"review\">Review your upload against version ")
            writer.write(current.version)
            writer.write("</button></div></form><h2>Or upload another file</h2>")
            uploadForm(base: current.version, into: &writer, context: context)
        }
    }

    /// The start of a form that posts a kept upload (`staged`) against version `base`.
    private func stagedForm(base: Int, staged id: String, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<form class=\"admin-form\" method=\"post\"")
        writer.urlAttribute("action", Self.path)
        writer.write(">")
        writer.csrfField(context)
        writer.hiddenField("base", base)
        writer.hiddenField("staged", id)
    }

    private func uploadForm(base: Int, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<form class=\"admin-form\" method=\"post\" enctype=\"multipart/form-data\"")
        writer.urlAttribute("action", Self.path)
        writer.write(">")
        writer.csrfField(context)
        writer.hiddenField("base", base)
        writer.write("<div class=\"admin-form__field\"><label for=\"field-catalogue\">Content file</label>")
        writer.write("<input type=\"file\" id=\"field-catalogue\" name=\"catalogue\" accept=\"application/json,.json\" required aria-describedby=\"field-catalogue-hint\">")
        writer.write("<p class=\"admin-form__hint\" id=\"field-catalogue-hint\">A catalogue as in Config/content.json, at most 4 MiB: checked as at start (every item's fields, unique ids, images present).</p></div>")
        writer.write("<div class=\"admin-form__actions\"><button class=\"button button--secondary\" type=\"submit\" name=\"action\" value=\"review\">Review the difference</button></div></form>")
    }

    /// The note's field: with `note` nil, missing from an apply (said beside it); else holding it.
    private func noteField(_ note: String?, into writer: inout HTMLWriter) {
        let missing = note == nil
        writer.write("<div class=\"admin-form__field\"><label for=\"field-note\">Note</label><input type=\"text\" id=\"field-note\" name=\"note\" maxlength=\"500\" required")
        if let note, !note.isEmpty { writer.attribute("value", note) }
        writer.attribute("aria-describedby", "field-note-hint" + (missing ? " field-note-error" : ""))
        if missing { writer.write(" aria-invalid=\"true\"") }
        writer.write("><p class=\"admin-form__hint\" id=\"field-note-hint\">Required to apply: why this change, for the history.</p>")
        if missing { writer.write("<p class=\"field__error\" id=\"field-note-error\">Write a note to apply.</p>") }
        writer.write("</div>")
    }
}
