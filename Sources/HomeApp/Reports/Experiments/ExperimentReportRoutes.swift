import FeatureToggles
import Foundation
import MicroHTTP
import Reporting
import ScreenKit

/// `GET /reports/experiments`, under the same access rule (the report group's middleware) and
/// time range as `/reports`.
struct ExperimentReportRoutes {
    let services: AppServices
    /// The report pages' pool: the store may block on the disk, never on libmicrohttpd's threads.
    let pool: WorkPool

    func register(in router: inout Router) {
        router.get("/reports/experiments") { request in try page(request) }
    }

    func page(_ request: Request) throws(HTTPError) -> Response {
        let range = try ReportRangeQuery(request.query)
        let test = try Self.test(request.query["test"])
        return try pool.respond { [self] in
            let model = ExperimentsScreenModel(range: range, results: Self.results(range.range, services: services), test: test,
                                               changes: Self.changes(range.range, services: services))
            return services.visit(request).page(ExperimentsScreen(viewModel: model), caching: .nowhere,
                                                configuration: services.operatorPage)
        }
    }

    /// The toggles' and catalogue's changes in `range`: every instance's with a report database
    /// (as the counts are), this instance's log without one or while it cannot answer.
    static func changes(_ range: ReportRange, services: AppServices) -> [ConfigChange] {
        guard let events = try? services.shared?.changes(range, limit: ConfigChange.limit) else {
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

    /// The results of every experiment the toggles name or the report lines in `range` carry:
    /// the toggles' experiments first, in file order, then the rest by name. With a report
    /// database, every instance's events; without one (or while it cannot answer), this
    /// instance's store's rollups, so it takes as long at 10 million events as at a thousand.
    static func results(_ range: ReportRange, services: AppServices) -> [ExperimentResult] {
        let counts = (try? services.shared?.experiments(range)) ?? services.reportLog.store.experiments(range)
        var results = results(counts, toggles: services.toggles.toggles,
                              displayNames: Dictionary(services.factory.layouts.map { ($0.layoutName, $0.displayName) },
                                                       uniquingKeysWith: { first, _ in first }))
        let toggles = services.toggles.toggles
        if let layoutExperiment = toggles.layoutExperiment, let index = results.firstIndex(where: { $0.name == layoutExperiment.name }) {
            results[index].afterwards = (toggles.interplayWarnings.isEmpty ? "Once it stops, visitors get "
                : "It sets the layout, so the rollout waits: once it stops, visitors get ") + toggles.layoutsWithoutExperiments + "."
        }
        if let tallies = services.reportLog.store.experimentVisitors() {
            var named = Set(results.map(\.name))
            for index in results.indices {
                results[index].visitors = VisitorResult(tallies[results[index].name],
                                                        toggles: toggles.experiments.first { $0.name == results[index].name })
            }
            // Experiments only the tallies know (their events left the range): shown too.
            for name in tallies.keys.sorted() where !named.contains(name) {
                named.insert(name)
                var result = ExperimentResult(name: name, counts: [], toggles: nil, displayNames: [:])
                result.visitors = VisitorResult(tallies[name], toggles: nil)
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
