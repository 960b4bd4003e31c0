import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// The notice on `/reports` of the last refused change to the content or toggles file: a reload
/// that fails keeps the previous file serving and said so only in the server log, so whoever
/// edited the file saw nothing wrong. Shown until a later change of that file is accepted.
enum RefusedChangeNotice {
    struct Entry {
        /// `content` or `toggles`.
        let file: String
        let path: String
        /// What serves meanwhile, as a clause.
        let kept: String
        let refusal: ReloadRejection
    }

    static func entries(_ services: AppServices) -> [Entry] {
        var entries: [Entry] = []
        if let refusal = services.content.lastRejection {
            entries.append(Entry(file: "content", path: services.content.fileURL.path, kept: "the previous catalogue stays in force", refusal: refusal))
        }
        if let refusal = services.toggles.lastRejection {
            entries.append(Entry(file: "toggles", path: services.toggles.path, kept: "the previous toggles stay in force", refusal: refusal))
        }
        return entries.sorted { $0.refusal.time > $1.refusal.time }
    }

    static func render(_ entries: [Entry], into writer: inout HTMLWriter) {
        guard !entries.isEmpty else { return }
        writer.write("<section class=\"reports__damaged reports__refused\" role=\"status\" aria-labelledby=\"refused-heading\">")
        writer.write("<h2 id=\"refused-heading\">")
        writer.write(entries.count == 1 ? "A change was refused" : "Changes were refused")
        writer.write("</h2><ul>")
        for entry in entries {
            let time = ReportTimestamp.string(from: entry.refusal.time)
            writer.write("<li")
            writer.attribute("data-refused", entry.file)
            writer.write(">The ")
            writer.text(entry.file)
            writer.write(" file <code>")
            writer.text(entry.path)
            writer.write("</code> was refused at <time")
            writer.attribute("datetime", time)
            writer.write(">")
            writer.text(time.replacing("T", with: " ").replacing("Z", with: " UTC"))
            writer.write("</time>; ")
            writer.text(entry.kept)
            writer.write(" until a change is accepted. <span data-refused-message>")
            writer.text(entry.refusal.message)
            writer.write("</span></li>")
        }
        writer.write("</ul></section>")
    }
}
