import ReportDatabase
import Reporting
import ScreenKit

final class ReportsScreenView: RootView {
    init() {}

    func renderAttributes(_ model: ReportsScreenModel, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write(" class=\"reports\"")
        // Live events belong on the page only while its range runs to now and it shows the newest.
        guard model.query.range.to == nil, model.query.before == nil else { return }
        // While the database cannot answer, the page is this instance's log but the stream follows
        // the database: it would say "Live" and bring nothing, then other instances' events.
        if case .fallback = model.source { return }
        writer.write(" data-live-reports")
        if let event = model.filter.event { writer.attribute("data-filter-event", event) }
        if let layout = model.filter.layout { writer.attribute("data-filter-layout", layout) }
        if let item = model.filter.item { writer.attribute("data-filter-item", item) }
        if let visitor = model.filter.visitor { writer.attribute("data-filter-visitor", visitor) }
        // Where the page ends, so the stream starts there and no line written meanwhile is
        // missed: this instance's log where the figures end; with a report database, the key in
        // the shared order its events end before.
        if let start = model.streamStart {
            writer.attribute("data-after", start.description)
        } else if case .local = model.source, let end = model.summary.end {
            writer.attribute("data-after", end.description)
        }
    }

    func renderContent(_ model: ReportsScreenModel, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer, context: scope.context)
        writer.write("""
            <div class="reports__body"><div class="reports__title"><h1>Report log</h1>\
            <p class="reports__live" data-live-status>Updates when you reload</p>
            """)
        if model.signedIn { ReportsSignIn.renderSignOut(into: &writer, context: scope.context, cssClass: "reports__sign-out") }
        writer.write("""
            </div>\
            <p class="reports__intro">Every home render and every action, newest first. \
            <a href="/reports.jsonl">The raw log (JSON Lines)</a> · <a href="/reports/experiments">Experiments</a> · 
            """)
        writer.write("<a")
        writer.urlAttribute("href", "/reports.json" + (model.query.linkQuery.isEmpty ? "" : "?" + model.query.linkQuery))
        writer.write(">These numbers as JSON</a></p>")
        DatabaseReportsView.renderSource(model.source, into: &writer)
        RefusedChangeNotice.render(model.refusedChanges, into: &writer)
        SetAsideNotice.render(model.setAside, into: &writer)
        ReportsRangeLinks.render(model.query, into: &writer)
        ReportsFilterForm.render(model, into: &writer)
        writer.write("<div class=\"reports__overview\"><section class=\"reports__summary\" aria-labelledby=\"summary-heading\">")
        writer.write("<h2 id=\"summary-heading\">Counts</h2><p class=\"stat\"><span class=\"stat__value\" data-total>")
        writer.write(model.summary.total)
        writer.write("</span> events</p><p class=\"reports__note\">")
        if model.summary.visitorsCounted {
            writer.write("<span data-visitors")
            writer.attribute("data-exact", model.summary.visitorsExact ? "true" : "false")
            writer.write(">")
            writer.text(VisitorFigure.text(model.summary.visitors, exact: model.summary.visitorsExact))
            writer.write(model.summary.visitorsExact ? "</span> visitors" : "</span> visitors (estimated, 1.6% standard error)")
        } else {
            writer.write("<span data-visitors-not-counted>Visitors not counted: this filter would read more than ")
            writer.write(ReportStore.visitorLineBudget)
            writer.write(" events; narrow the range</span>")
        }
        writer.write(" · <span data-dropped>")
        writer.write(model.summary.dropped)
        writer.write("</span> lost (full buffer or disk) · ")
        writer.write(model.refused)
        writer.write(" refused by the rate limit")
        if case .database = model.source { writer.write(" (both on this instance)") }
        writer.write("</p>")
        counts("By event", model.summary.byEvent, key: "event", query: model.query, into: &writer)
        counts("By layout", model.summary.byLayout, key: "layout", query: model.query, into: &writer)
        writer.write("</section>")
        EventsChart.render(model.summary.series, bucket: model.summary.bucket, from: model.summary.from,
                           changes: model.changes, into: &writer)
        writer.write("</div>")
        DatabaseReportsView.renderShipping(model.source, lag: model.lag, into: &writer)
        events(model, into: &writer)
        writer.write("</div>")
    }

    /// Each name links to the events it counts, in the same range and filters.
    private func counts(_ caption: StaticString, _ counts: [String: Int], key: StaticString, query: ReportsQuery,
                        into writer: inout HTMLWriter) {
        writer.write("<table class=\"counts\"><caption>")
        writer.write(caption)
        writer.write("</caption><tbody data-counts-")
        writer.write(key)
        writer.write(">")
        for (name, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            writer.write("<tr")
            writer.attribute("data-count", name)
            writer.write("><th scope=\"row\"><a")
            writer.attribute("href", "/reports?" + query.narrowed("\(key)", to: name))
            writer.write(">")
            writer.text(name)
            writer.write("</a></th><td>")
            writer.write(count)
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table>")
    }

    private func events(_ model: ReportsScreenModel, into writer: inout HTMLWriter) {
        writer.write("""
            <section class="reports__events" aria-labelledby="events-heading"><h2 id="events-heading">Events</h2>\
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="events-heading">\
            <table class="events"><thead><tr><th scope="col">Time (UTC)</th><th scope="col">Event</th>\
            <th scope="col">Layout</th><th scope="col">Item</th><th scope="col">Visitor</th>\
            <th scope="col">Request</th></tr></thead><tbody data-events>
            """)
        for event in model.events {
            writer.write("<tr><td><time>")
            writer.text(ReportTimestamp.string(from: event.timestamp))
            writer.write("</time></td><td><span class=\"event-name\">")
            writer.text(event.name.rawValue)
            writer.write("</span></td><td>")
            writer.text(event.layout ?? "")
            writer.write("</td><td>")
            writer.text(event.item ?? "")
            writer.write("</td><td>")
            if let visitor = event.visitor, !visitor.isEmpty {
                // The start of the id, which the filter accepts; the whole id in the link and title.
                writer.write("<a class=\"visitor-link\"")
                writer.urlAttribute("href", "/reports?" + model.query.visitorQuery(visitor))
                writer.attribute("title", visitor)
                writer.write("><code>")
                writer.text(String(visitor.prefix(VisitorPrefix.shown)))
                writer.write("</code></a>")
            }
            writer.write("</td><td><code>")
            writer.text(event.request ?? "")
            writer.write("</code></td></tr>")
        }
        writer.write("</tbody></table></div>")
        if model.events.isEmpty { writer.write("<p class=\"reports__empty\">No events match.</p>") }
        if let next = model.next {
            writer.write("<p><a class=\"button button--secondary\"")
            let query = model.query.linkQuery
            writer.urlAttribute("href", "/reports?" + (query.isEmpty ? "" : query + "&") + "before=\(QueryEncoding.encode(next))")
            writer.write(">Older events</a></p>")
        }
        writer.write("</section>")
    }
}
