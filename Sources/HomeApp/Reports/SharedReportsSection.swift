import ReportDatabase

/// What the report page shows from the report database: every instance's counts, or why not.
enum SharedReportsSection {
    case overview(SharedReports.Overview, local: ShipperStatus?)
    case unavailable(String)
}
