#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReportDatabase
import ScreenKit

/// On `/admin` and `/admin/content` with a report database: whether this instance reaches it, a
/// file it set aside, and every instance with the version it serves; one behind the newest, or
/// silent for more than a few seconds, is flagged. The page's script asks for it again once a
/// second (`InstancesFragment`), so the table follows an apply reaching every instance.
struct AdminInstances {
    /// An instance not heard from for this long is flagged (they report every second).
    static let silentAfter: TimeInterval = 5
    let database: DatabaseConfigVersions?
    let kind: String
    let status: ConfigSyncStatus
    /// The version this instance serves, and its name.
    let serving: Int
    let instance: String
    /// The version the page holding the part was drawn from, when the script asks for it again.
    var drawnFrom: Int?

    init<Document>(_ versions: ConfigVersions<Document>) {
        self.init(database: versions.database, kind: Document.names.kind, status: versions.status, serving: versions.current.version,
                  instance: versions.instance)
    }

    init(database: DatabaseConfigVersions?, kind: String, status: ConfigSyncStatus, serving: Int, instance: String) {
        self.database = database
        self.kind = kind
        self.status = status
        self.serving = serving
        self.instance = instance
    }

    /// Where the page's script asks for this part again.
    var live: String { "\(InstancesFragment.path)?kind=\(kind)&drawn=\(serving)" }

    func render(into writer: inout HTMLWriter) {
        guard database != nil else { return }
        writer.write("<div")
        writer.urlAttribute("data-live-instances", live)
        writer.write(">")
        renderInside(into: &writer)
        writer.write("</div>")
    }

    /// The part itself.
    func renderInside(into writer: inout HTMLWriter) {
        guard let database else { return }
        if let drawnFrom, drawnFrom != serving {
            // The page's version and form are older than the table below says: the way to the new one.
            writer.write("<p class=\"admin__notice\" data-newer-version>Version ")
            writer.write(serving)
            writer.write(" is in force now; this page was drawn from version ")
            writer.write(drawnFrom)
            writer.write(". <a")
            writer.urlAttribute("href", kind == TogglesDocument.names.kind ? TogglesDocument.names.page : CatalogueDocument.names.page)
            writer.write(">Reload it</a> to see the version in force and make changes from it.</p>")
        }
        let status = self.status.snapshot
        if !status.isReachable {
            writer.write("<p class=\"admin__problem\" role=\"alert\" data-database=\"unreachable\">This instance cannot reach the database")
            if let since = status.failingSince {
                writer.write(" since ")
                writer.text(AdminHistory.format(since))
            }
            writer.write(": it keeps serving version ")
            writer.write(serving)
            writer.write(" (kept on its disk), and applying is refused until the database answers.</p>")
        }
        if let conflict = status.conflict {
            writer.write("<p class=\"admin__problem\" role=\"alert\" data-conflict>")
            writer.text(conflict)
            // The toggles' form can be drawn from it; a catalogue is uploaded from its file.
            if kind == TogglesDocument.names.kind, status.kept != nil {
                writer.write(" <a href=\"/admin?kept\" data-review-kept>Review the kept edit as a change</a>.")
            }
            writer.write("</p>")
        }
        writer.write("<h2>Instances</h2>")
        guard let servers = try? database.servers(kind) else {
            writer.write("<p data-instances=\"unreachable\">The list of instances needs the database.</p>")
            return
        }
        let newest = max(servers.map(\.version).max() ?? 0, serving)
        let now = Date()
        writer.write("<table class=\"admin-instances\"><thead><tr><th scope=\"col\">Instance</th><th scope=\"col\">Serves version</th>")
        writer.write("<th scope=\"col\">Last heard</th><th scope=\"col\">State</th></tr></thead><tbody>")
        for server in servers {
            let silent = now.timeIntervalSince(server.seenAt) > Self.silentAfter
            let lags = server.version < newest
            writer.write("<tr")
            writer.attribute("data-instance", server.instance)
            writer.attribute("data-version", server.version)
            writer.write("><td>")
            writer.text(server.instance)
            if server.instance == instance { writer.write(" (this one)") }
            writer.write("</td><td>")
            writer.write(server.version)
            writer.write("</td><td>")
            writer.text(AdminHistory.format(server.seenAt))
            writer.write("</td><td>")
            writer.write(silent ? "not heard from" : lags ? "lags behind" : "up to date")
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table>")
    }
}
