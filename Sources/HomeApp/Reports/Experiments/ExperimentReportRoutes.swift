import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import Reporting
import ScreenKit

/// `GET /reports/experiments`, under the same access rule (the report group's middleware) and
/// time range as `/reports`.
struct ExperimentReportRoutes {
    let services: AppServices
    /// Whether the page was opened through a sign-in, which it offers to end.
    let access: ReportsAccess
    /// The report pages' pool: the store may block on the disk, never on libmicrohttpd's threads.
    let pool: RequestPool
    /// Which toggles version changed a running experiment's split, said beside its sample-ratio warning.
    var splitChanges: SplitChanges?

    func register(in router: inout Router) {
        router.get("/reports/experiments") { request in try page(request) }
    }

    func page(_ request: Request) throws(HTTPError) -> Response {
        let range = try ReportRangeQuery(request.query)
        let test = try Self.test(request.query["test"])
        let segment = try Self.segment(request.query["segment"])
        return try pool.respond { [self] in
            var unavailable: String?
            let results = Self.results(range.range, segment: segment, services: services,
                                       splitChanges: splitChanges?.current().newestChanges ?? [:], unavailable: &unavailable)
            var model = ExperimentsScreenModel(range: range, results: results, test: test,
                                               changes: Self.changes(range.range, services: services))
            model.unavailable = unavailable
            model.segment = segment
            model.counting = Self.counting(services)
            model.signedIn = access.hasValidCookie(request)
            return services.visit(request).page(ExperimentsScreen(viewModel: model), caching: .nowhere,
                                                configuration: services.operatorPage)
        }
    }

    /// The toggles' and catalogue's changes in `range`: every instance's with a report database
    /// (as the counts are), this instance's log without one or while it cannot answer.
    static func changes(_ range: ReportRange, services: AppServices) -> [ConfigChange] {
        guard let events = try? services.database?.changes(range, limit: ConfigChange.limit) else {
            return ConfigChange.local(services.reportLog.store, range)
        }
        return events.compactMap(ConfigChange.init)
    }

    /// `?test=`: `sequential` (the default) or `fixed`.
    static func test(_ value: String?) throws(HTTPError) -> VisitorResult.Test {
        guard let value, !value.isEmpty else { return .sequential }
        guard let test = VisitorResult.Test(rawValue: value) else {
            throw HTTPError(.badRequest, "\"test\" must be sequential or fixed.")
        }
        return test
    }

    /// `?segment=`: `all` (the default) or one device or cohort (`VisitorSegmentFilter.name`).
    static func segment(_ value: String?) throws(HTTPError) -> VisitorSegmentFilter {
        guard let value, !value.isEmpty else { return .all }
        guard let segment = VisitorSegmentFilter(name: value) else {
            throw HTTPError(.badRequest, "\"segment\" must be one of: \(VisitorSegmentFilter.choices.map(\.name).joined(separator: ", ")).")
        }
        return segment
    }

    /// While the visitor tallies are being prepared at start: how far (0 to 1); nil once ready, and
    /// with a report database (its figures are always there).
    static func counting(_ services: AppServices) -> Double? {
        services.database == nil ? services.reportLog.store.experimentTallyProgress : nil
    }

    /// The exact visitor figures: with a report database every instance's (the shippers keep them
    /// in it), else, or while it cannot answer, this instance's own tallies.
    static func visitorTallies(_ services: AppServices, unavailable: inout String?) -> [String: ExperimentVisitors]? {
        if let database = services.database {
            do { return try database.experimentVisitors() } catch { unavailable = unavailable ?? "\(error)" }
        }
        return services.reportLog.store.experimentVisitors()
    }

    /// The UTC days of first exposure the visitor figures cover for `range`: from the day `from`
    /// falls in to the day `to` falls in (a time is widened to its whole day); nil for all time.
    static func exposureDays(_ range: ReportRange) -> Range<Int32>? {
        guard range.from != nil || range.to != nil else { return nil }
        let day = 86_400.0
        let first = range.from.map { Int32(($0.timeIntervalSince1970 / day).rounded(.down)) } ?? Int32.min
        let end = range.to.map { Int32(($0.timeIntervalSince1970 / day).rounded(.up)) } ?? Int32.max
        return first..<max(first, end)
    }

    /// The results of every experiment the toggles name or the report lines in `range` carry:
    /// the toggles' experiments first, in file order, then the rest by name. With a report
    /// database, every instance's events; without one (or while it cannot answer), this
    /// instance's store's rollups, so it takes as long at 10 million events as at a thousand.
    static func results(_ range: ReportRange, segment: VisitorSegmentFilter = .all, services: AppServices,
                        splitChanges: [String: LastRunSplits.Change] = [:]) -> [ExperimentResult] {
        var unavailable: String?
        return results(range, segment: segment, services: services, splitChanges: splitChanges, unavailable: &unavailable)
    }

    /// `results`, with why the report database could not answer when this instance's figures
    /// stand in for every instance's, for the page to say so.
    static func results(_ range: ReportRange, segment: VisitorSegmentFilter = .all, services: AppServices,
                        splitChanges: [String: LastRunSplits.Change] = [:], unavailable: inout String?) -> [ExperimentResult] {
        var counts: [ReportExperimentCounts]?
        if let database = services.database {
            do { counts = try database.experiments(range) } catch { unavailable = "\(error)" }
        }
        let store = services.reportLog.store
        var results = results(counts ?? store.experiments(range), toggles: services.toggles.toggles,
                              displayNames: Dictionary(services.factory.layouts.map { ($0.layoutName, $0.displayName) },
                                                       uniquingKeysWith: { first, _ in first }))
        let toggles = services.toggles.toggles
        if let layoutExperiment = toggles.layoutExperiment, let index = results.firstIndex(where: { $0.name == layoutExperiment.name }) {
            results[index].afterwards = (toggles.interplayWarnings.isEmpty ? "Once it stops, visitors get "
                : "It sets the layout, so the rollout waits: once it stops, visitors get ") + toggles.layoutsWithoutExperiments + "."
        }
        if let tallies = visitorTallies(services, unavailable: &unavailable) {
            let days = exposureDays(range)
            var named = Set(results.map(\.name))
            for index in results.indices {
                let name = results[index].name
                let experiment = toggles.experiments.first { $0.name == name }
                results[index].visitors = VisitorResult(tallies[name]?.filtered(segment, days: days),
                                                        toggles: experiment, margins: experiment?.guardrailMargins ?? .standard)
                results[index].visitors?.splitChange = splitChanges[name]
            }
            // Experiments only the tallies know (their events left the range): shown too.
            for name in tallies.keys.sorted() where !named.contains(name) {
                named.insert(name)
                var result = ExperimentResult(name: name, counts: [], toggles: nil, displayNames: [:])
                result.visitors = VisitorResult(tallies[name]?.filtered(segment, days: days), toggles: nil)
                results.append(result)
            }
        }
        return results
    }

    static func results(_ counts: [ReportExperimentCounts], toggles: Toggles, displayNames: [String: String]) -> [ExperimentResult] {
        let byName = Dictionary(counts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let configured = toggles.experiments.map { experiment in
            ExperimentResult(name: experiment.name, counts: byName[experiment.name]?.groups ?? [],
                             toggles: experiment, displayNames: displayNames)
        }
        let others = counts.filter { counted in !toggles.experiments.contains { $0.name == counted.name } }
            .map { ExperimentResult(name: $0.name, counts: $0.groups, toggles: nil, displayNames: displayNames) }
        return configured + others
    }
}
