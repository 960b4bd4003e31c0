#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ReportDatabase
import Reporting

/// `GET /metrics`: the server's health in the Prometheus text format.
struct MetricsPage {
    let services: AppServices
    let server: ServerMetrics.Snapshot?
    let requestsInFlight: Int?
    var toggleVersions: ToggleVersions? = nil
    var contentVersions: ContentVersions? = nil

    func render() -> String {
        var out = MetricsText()
        if let server { http(server, into: &out) }
        if let requestsInFlight {
            out.single("dynamic_home_http_requests_in_flight", "gauge", "Requests started and not yet completed.", Double(requestsInFlight))
        }
        reportLog(into: &out)
        if let shipper = services.shipper { shipping(shipper.status, into: &out) }
        out.single("dynamic_home_content_version", "gauge", "This process's loads of the content catalogue (1 at start, +1 per accepted change).",
                   Double(services.content.version))
        out.single("dynamic_home_content_reload_failures_total", "counter", "Content reloads refused (the previous catalogue kept serving).",
                   Double(services.content.rejectedReloads))
        out.single("dynamic_home_toggles_version", "gauge", "This process's loads of the feature toggles (1 at start, +1 per accepted change).",
                   Double(services.toggles.version))
        out.single("dynamic_home_toggles_reload_failures_total", "counter", "Toggles reloads refused (the previous toggles kept serving).",
                   Double(services.toggles.rejectedReloads))
        if let toggleVersions { configuration(toggleVersions, into: &out) }
        process(ProcessMetrics.read(), into: &out)
        return out.text
    }

    private func http(_ server: ServerMetrics.Snapshot, into out: inout MetricsText) {
        out.family("dynamic_home_http_requests_total", "counter", "Requests answered, by route and status.")
        for row in server.requests {
            out.sample("dynamic_home_http_requests_total", [("route", row.route), ("status", row.status)], Double(row.count))
        }
        out.family("dynamic_home_http_request_duration_seconds", "histogram",
                   "Time from the request's arrival to its completion, by route.")
        for row in server.latency {
            for (bound, count) in zip(ServerMetrics.buckets.map(MetricsText.format) + ["+Inf"], row.cumulative) {
                out.sample("dynamic_home_http_request_duration_seconds_bucket", [("route", row.route), ("le", bound)], Double(count))
            }
            out.sample("dynamic_home_http_request_duration_seconds_sum", [("route", row.route)], row.sum)
            out.sample("dynamic_home_http_request_duration_seconds_count", [("route", row.route)], Double(row.count))
        }
        out.single("dynamic_home_http_response_body_bytes_total", "counter",
                   "Body bytes of the answers held in memory (pages, JSON, errors), before compression.", Double(server.bytesSent))
        out.single("dynamic_home_http_open_connections", "gauge", "Client connections open.", Double(server.openConnections))
        out.single("dynamic_home_http_open_streams", "gauge", "Streaming responses open (the live report stream).", Double(server.openStreams))
    }

    private func configuration(_ versions: ToggleVersions, into out: inout MetricsText) {
        out.single("dynamic_home_config_toggles_version", "gauge", "The toggles' version in force, as /admin numbers it.",
                   Double(versions.current.version))
        if let contentVersions {
            // The same number on every instance over one database: what to compare across them.
            out.single("dynamic_home_config_content_version", "gauge", "The catalogue's version in force, as /admin/content numbers it.",
                       Double(contentVersions.current.version))
        }
        guard versions.database != nil else { return }
        let status = versions.status.snapshot
        out.single("dynamic_home_config_database_reachable", "gauge",
                   "1 while the report database answers the toggles' follower; 0 while this instance serves its last version alone.",
                   status.isReachable ? 1 : 0)
        out.single("dynamic_home_config_database_unreachable_seconds", "gauge", "Seconds since the report database last failed to answer, while it does.",
                   status.failingSince.map { Date().timeIntervalSince($0) } ?? 0)
    }

    private func reportLog(into out: inout MetricsText) {
        let log = services.reportLog
        let status = log.status
        out.single("dynamic_home_report_events_written_total", "counter", "Report events written to the local log.", Double(status.written))
        out.single("dynamic_home_report_events_dropped_total", "counter", "Report events lost (full buffer, disk floor, line too large, after shutdown).",
                   Double(status.dropped))
        out.single("dynamic_home_report_queue_depth", "gauge", "Report events recorded and not yet written.", Double(status.pending))
        let flushes = log.flushTimes
        out.family("dynamic_home_report_flush_duration_seconds", "histogram",
                   "Time the report writer takes to write a chunk of events to its segment and fsync it.")
        for (bound, count) in zip(FlushTimes.buckets.map(MetricsText.format) + ["+Inf"], flushes.cumulative) {
            out.sample("dynamic_home_report_flush_duration_seconds_bucket", [("le", bound)], Double(count))
        }
        out.sample("dynamic_home_report_flush_duration_seconds_sum", [], flushes.sum)
        out.sample("dynamic_home_report_flush_duration_seconds_count", [], Double(flushes.count))
        out.single("dynamic_home_report_segment_bytes", "gauge", "Bytes the local log's segments take on disk.", Double(log.segmentBytes))
        out.single("dynamic_home_report_unshipped_deleted_total", "counter",
                   "Events in segments the size cap deleted before they reached the report database.", Double(log.unshippedDeleted))
        out.single("dynamic_home_report_segments_set_aside", "gauge",
                   "Segments of the local log that cannot be read, moved into its damaged/ folder (named on /reports).",
                   Double(log.store.setAsideSegments.count))
    }

    private func shipping(_ status: ShipperStatus, into out: inout MetricsText) {
        out.single("dynamic_home_report_shipped_events_total", "counter", "Report events shipped to the report database.",
                   Double(status.shippedEvents))
        out.single("dynamic_home_report_shipped_batches_total", "counter", "Transactions that shipped report events.", Double(status.batches))
        out.single("dynamic_home_report_shipper_errors_total", "counter", "Failed attempts to reach or write the report database.",
                   Double(status.errors))
        out.single("dynamic_home_report_shipper_connected", "gauge", "1 while the shipper is connected to the report database.",
                   status.connected ? 1 : 0)
        out.single("dynamic_home_report_shipper_blocked", "gauge",
                   "1 while the shipper waits at a segment it cannot read (damaged, or set aside and not released).",
                   status.blocked != nil ? 1 : 0)
        out.single("dynamic_home_report_shipper_unreadable_total", "counter",
                   "Attempts to ship that stopped at a segment that cannot be read.", Double(status.unreadableReads))
        out.single("dynamic_home_report_shipper_skipped_segments_total", "counter",
                   "Set-aside segments the shipper passed on purpose after an operator released them.", Double(status.skippedSegments))
        out.single("dynamic_home_report_shipper_lag_seconds", "gauge",
                   "Seconds since the report database last held every local event (-1: never yet).", status.lag() ?? -1)
        out.single("dynamic_home_report_visitor_fold_lag_seconds", "gauge",
                   "Seconds the experiment visitor figures are behind the shipped events (changes waiting to be folded).",
                   status.foldLag())
        out.single("dynamic_home_report_visitor_changes_waiting", "gauge",
                   "Shipped batches of experiment visitor changes waiting to be folded, at the latest look.", Double(status.unfoldedBatches))
    }

    private func process(_ process: ProcessMetrics, into out: inout MetricsText) {
        out.single("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", process.cpuSeconds)
        out.single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", Double(process.residentBytes))
        out.single("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", Double(process.virtualBytes))
        out.single("process_open_fds", "gauge", "Number of open file descriptors.", Double(process.openFDs))
        out.single("process_max_fds", "gauge", "Maximum number of open file descriptors.", Double(process.maxFDs))
        out.single("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", process.startTime)
        out.single("process_threads", "gauge", "Number of OS threads in the process.", Double(process.threads))
    }
}
