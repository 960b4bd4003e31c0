import FeatureToggles
import Foundation
import HomeAppTestSupport
import HomeLayouts
import Testing
import TestSupport
@testable import HomeApp

/// `Config/README.md` against the loaders: its examples are accepted, its sample errors are the
/// ones the loaders write, and the shipped files load and are the ones it shows.
@Suite struct ConfigReadmeTests {
    static let config = AppFixture.configFolder
    static let layouts = HomeFactory.standard.names

    /// The fenced blocks of one language in a Markdown file, in order.
    static func blocks(_ language: String, in file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func toggles(_ text: String) throws -> Toggles {
        let toggles = try Toggles(json: Data(text.utf8), file: "example")
        try toggles.checkLayouts(layouts, file: "example")
        return toggles
    }

    @Test(arguments: [
        "Config/README.md", "docs/experiments.md",
    ])
    func everyJSONExampleOfConfigREADMEMdAndDocsExperimentsMdIsAcceptedByItsLoader(document: String) throws {
        let file = AppFixture.repositoryRoot.appendingPathComponent(document)
        let examples = try Self.blocks("json", in: file)
        #expect(!examples.isEmpty)
        for example in examples {
            if example.contains("\"items\"") {
                let catalog = try ContentCatalog.decode(Data(example.utf8), file: "example", publicDirectory: AppFixture.publicFolder)
                #expect(!catalog.items.isEmpty)
            } else {
                #expect(throws: Never.self, "\(example)") { try Self.toggles(example) }
            }
        }
    }

    @Test func theShippedFilesLoadAndTheTogglesAreTheOnesTheREADMEShowsAnExperimentWhoseGroupsDiffer() throws {
        let router = try ToggleRouter(path: Self.config.appendingPathComponent("toggles.json").path, layouts: Self.layouts)
        let shown = try #require(try Self.blocks("json", in: Self.config.appendingPathComponent("README.md"))
            .first { $0.contains("\"experiments\"") })
        #expect(try Self.toggles(shown) == router.toggles)
        for experiment in router.toggles.activeExperiments {
            let treatments = experiment.groups.map { "\($0.layout ?? "-") \($0.onboarding.map(String.init) ?? "-")" }
            #expect(Set(treatments).count == experiment.groups.count, "\(experiment.name): groups that change nothing")
        }
        let content = try ContentCatalog.load(contentsOf: Self.config.appendingPathComponent("content.json"),
                                              publicDirectory: AppFixture.publicFolder)
        #expect(content.items.count > 12)
    }

    @Test func theAppStartsOnTheShippedFilesWithoutASingleWarningFromTheirLoaders() throws {
        let folder = try TemporaryDirectory("shipped-config")
        defer { folder.remove() }
        let log = LogRecorder()
        let configuration = AppConfiguration(publicFolder: AppFixture.publicFolder.path, reportLog: folder.path("reports"))
        #expect(configuration.togglesFile == Self.config.appendingPathComponent("toggles.json").path)
        let app = try HomeApplication(configuration: configuration, logger: log.logger)
        app.shutdown()
        #expect(log.entries.contains { $0.message == "Content loaded" })
        let complaints = log.entries.filter { $0.level >= .warning }.map(\.message)
        #expect(complaints.isEmpty, "\(complaints)")
    }

    @Test func theREADMEsSampleErrorsAreWhatTheLoadersSay() throws {
        let samples = try Self.blocks("text", in: Self.config.appendingPathComponent("README.md"))
        // The shipped toggles without the comma after "list".
        let shipped = try String(contentsOf: Self.config.appendingPathComponent("toggles.json"), encoding: .utf8)
        let comma = try #require(shipped.range(of: "\"list\","))
        let broken = shipped.replacingCharacters(in: comma, with: "\"list\"")
        let syntax = try #require(throws: TogglesError.self) { try Toggles(json: Data(broken.utf8), file: "/srv/dynamic-home/Config/toggles.json") }
        #expect(samples.contains(syntax.description), "\(syntax)")
        // Item 12 of the shipped catalogue with a kind the app does not have.
        let catalogue = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.config.appendingPathComponent("content.json")))
        var object = try #require(catalogue as? [String: Any])
        var items = try #require(object["items"] as? [[String: Any]])
        items[12]["kind"] = "movie"
        object["items"] = items
        let content = try #require(throws: ContentCatalogError.self) {
            try ContentCatalog.decode(JSONSerialization.data(withJSONObject: object), file: "/srv/dynamic-home/Config/content.json")
        }
        #expect(samples.contains(content.description), "\(content)")
        // The start-up line the README quotes.
        let field = try #require(throws: TogglesError.self) { try Toggles(json: Data(#"{"onboarding": 1}"#.utf8), file: "/srv/dynamic-home/Config/toggles.json") }
        let readme = try String(contentsOf: Self.config.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`dynamic-home: --toggles: \(field)`"), "\(field)")
    }
}
