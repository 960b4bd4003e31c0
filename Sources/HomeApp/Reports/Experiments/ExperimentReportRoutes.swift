import FeatureToggles
import Foundation
import MicroHTTP
import Reporting
import ScreenKit

/// `GET /reports/experiments`, under the same access rule and time range as `/reports`.
struct ExperimentReportRoutes {
    let services: AppServices
    let access: ReportAccess

    func register(in router: inout Router) {
        router.get("/reports/experiments") { request in try page(request) }
    }

    func page(_ request: Request) throws(HTTPError) -> Response {
        try access.authorize(request)
        let range = try ReportRangeQuery(request.query)
        let model = ExperimentsScreenModel(range: range, results: try results(range.range))
        return services.visit(request).page(ExperimentsScreen(viewModel: model), configuration: services.page)
    }

    /// The results of every experiment the toggles name or the report lines in `range` carry:
    /// the toggles' experiments first, in file order, then the rest by name.
    func results(_ range: ReportRange) throws(HTTPError) -> [ExperimentResult] {
        let counts: [ReportExperimentCounts]
        do {
            // The interim scan; the report store's `experiments(_:)` answers the same from its rollups.
            let reader = ReportReader(path: services.reportLog.configuration.path, logger: services.logger)
            counts = try ExperimentLogScan(reader: reader).experiments(range)
        } catch {
            services.logger.error("report log unreadable", metadata: ["error": "\(error)"])
            throw HTTPError(.serviceUnavailable, "The report log cannot be read right now.")
        }
        return Self.results(counts, toggles: services.toggles.toggles,
                            displayNames: Dictionary(services.factory.layouts.map { ($0.layoutName, $0.displayName) },
                                                     uniquingKeysWith: { first, _ in first }))
    }

    static func results(_ counts: [ReportExperimentCounts], toggles: Toggles, displayNames: [String: String]) -> [ExperimentResult] {
        let byName = Dictionary(counts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let configured = toggles.experiments.map { experiment in
            ExperimentResult(byName[experiment.name] ?? ReportExperimentCounts(name: experiment.name, groups: []),
                             toggles: experiment, displayNames: displayNames)
        }
        let others = counts.filter { counted in !toggles.experiments.contains { $0.name == counted.name } }
            .map { ExperimentResult($0, toggles: nil, displayNames: displayNames) }
        return configured + others
    }
}
