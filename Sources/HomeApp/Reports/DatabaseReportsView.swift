import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReportDatabase
import Reporting
import ScreenKit

/// Where `/reports` reads from, said on the page: with a report database, that the figures are
/// every instance's and how far each instance has shipped (what the page cannot show yet); while
/// the database cannot answer, plainly that the page shows this instance's log alone.
enum DatabaseReportsView {
    /// The line under the title.
    static func renderSource(_ source: ReportsReading.Source, into writer: inout HTMLWriter) {
        switch source {
        case .local:
            return
        case .database:
            writer.write("<p class=\"reports__source\" data-source=\"database\">Every instance's events, from the report database.</p>")
        case .fallback(let reason):
            writer.write("<p class=\"reports__unavailable\" role=\"status\" data-source=\"local\" data-shared-unavailable>")
            writer.write("The report database cannot be read right now (")
            writer.text(reason)
            writer.write("): this page shows <strong>this instance's own log only</strong>, not every instance's.</p>")
        }
    }

    /// Each instance's shipping: events in the database, and up to when they are complete.
    static func renderShipping(_ source: ReportsReading.Source, lag: Double?, into writer: inout HTMLWriter) {
        guard case .database(let instances) = source else { return }
        writer.write("<section class=\"reports__shared\" aria-labelledby=\"shared-heading\" data-shared>")
        writer.write("<h2 id=\"shared-heading\">Instances</h2><p>")
        if let complete = DatabaseReports.completeUntil(instances) {
            writer.write("Every instance's events are in these figures up to <time data-complete-until>")
            writer.text(ReportTimestamp.string(from: complete))
            writer.write("</time>; later ones may still be on their way.")
        } else {
            writer.write("Some instance has not shipped its events yet; these figures may lack them.")
        }
        if let lag {
            writer.write(" This instance's lag: <span data-shared-lag>")
            writer.text(String(printf: "%.1f", lag))
            writer.write("</span> s.")
        }
        writer.write("</p>")
        writer.write("""
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="shared-heading"><table class="events">\
            <thead><tr><th scope="col">Instance</th><th scope="col">Events shipped</th>\
            <th scope="col">Last shipped (UTC)</th><th scope="col">Complete up to (UTC)</th></tr></thead><tbody data-shared-instances>
            """)
        for instance in instances {
            writer.write("<tr><td>")
            writer.text(instance.name)
            writer.write("</td><td>")
            writer.write(instance.events)
            writer.write("</td><td>")
            writer.text(instance.shippedAt.map(ReportTimestamp.string(from:)) ?? "")
            writer.write("</td><td>")
            writer.text(instance.completeUntil.map(ReportTimestamp.string(from:)) ?? "never")
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div></section>")
    }
}
