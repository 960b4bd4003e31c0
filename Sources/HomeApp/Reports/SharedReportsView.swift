import Foundation
import ReportDatabase
import Reporting
import ScreenKit

/// The "All instances" section of the report page: the shared total, counts by event, and each
/// instance's shipping (events in the database, and up to when they are complete).
enum SharedReportsView {
    static func render(_ section: SharedReportsSection, into writer: inout HTMLWriter) {
        writer.write("<section class=\"reports__shared\" aria-labelledby=\"shared-heading\" data-shared>")
        writer.write("<h2 id=\"shared-heading\">All instances</h2>")
        switch section {
        case .unavailable(let reason):
            writer.write("<p class=\"reports__empty\" data-shared-unavailable>The report database cannot be read right now (")
            writer.text(reason)
            writer.write("); the counts above are this instance's own log.</p>")
        case .overview(let overview, let local):
            writer.write("<p class=\"stat\"><span class=\"stat__value\" data-shared-total>")
            writer.write(overview.total)
            writer.write("</span> events")
            if let complete = overview.completeUntil, complete > .distantPast {
                writer.write(", complete up to <time>")
                writer.text(ReportTimestamp.string(from: complete))
                writer.write("</time>")
            }
            writer.write("</p>")
            if let local, let lag = local.lag() {
                writer.write("<p>This instance's lag: <span data-shared-lag>")
                writer.text(String(format: "%.1f", lag))
                writer.write("</span> s</p>")
            }
            writer.write("<table class=\"counts\"><caption>By event, every instance</caption><tbody data-shared-events>")
            for (name, count) in overview.byEvent.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                writer.write("<tr><th scope=\"row\">")
                writer.text(name)
                writer.write("</th><td>")
                writer.write(count)
                writer.write("</td></tr>")
            }
            writer.write("</tbody></table>")
            writer.write("""
                <div class="table-scroll" tabindex="0" role="region" aria-labelledby="shared-heading"><table class="events">\
                <thead><tr><th scope="col">Instance</th><th scope="col">Events shipped</th>\
                <th scope="col">Last shipped (UTC)</th><th scope="col">Complete up to (UTC)</th></tr></thead><tbody data-shared-instances>
                """)
            for instance in overview.instances {
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
            writer.write("</tbody></table></div>")
        }
        writer.write("</section>")
    }
}
