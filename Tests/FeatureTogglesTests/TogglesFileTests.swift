import Foundation
import Testing

@testable import FeatureToggles

/// A temporary toggles file.
struct TogglesFile {
    let directory: URL
    var path: String { directory.appendingPathComponent("toggles.json").path }

    init(_ contents: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("toggles-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let contents {
            do { try write(contents) } catch { remove(); throw error }  // the caller never gets it to remove
        }
    }

    func write(_ contents: String) throws {
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite struct TogglesFileTests {
    @Test func readsAValidFileAndTheShippedDefault() throws {
        let file = try TogglesFile(
            #"{"defaultLayout": "grid", "gridRollout": 0.25, "experiment": {"name": "home-hero", "groups": ["a", "b", "c"]}, "onboarding": true}"#)
        defer { file.remove() }
        let router = try ToggleRouter(path: file.path)
        #expect(router.toggles == Toggles(
            defaultLayout: "grid", gridRollout: 0.25, experiment: .init(name: "home-hero", groups: ["a", "b", "c"]), onboarding: true))

        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Config/toggles.json").path
        let layoutExperiment = Toggles.Experiment(name: "home-layout", groups: [.init(name: "list", layout: "list"), .init(name: "grid", layout: "grid")])
        #expect(try ToggleRouter(path: shipped).toggles == Toggles(defaultLayout: "list", experiments: [layoutExperiment], onboarding: true))
        #expect(try ToggleRouter(path: shipped, layouts: ["list", "grid"]).toggles.experiments.map(\.name) == ["home-layout"])
    }

    @Test func absentFieldsTakeTheirDefaults() throws {
        let toggles = try Toggles(json: Data(#"{"experiment": null}"#.utf8), file: "t.json")
        #expect(toggles == Toggles(defaultLayout: "list", gridRollout: 0, experiment: nil, onboarding: false))
    }

    @Test(arguments: [
        (#"{"gridRollout": 1.5}"#, "gridRollout", "t.json: gridRollout must be a number between 0 and 1 (got 1.5)"),
        (#"{"gridRollout": -0.1}"#, "gridRollout", "t.json: gridRollout must be a number between 0 and 1 (got -0.1)"),
        (#"{"gridRollout": "0.3"}"#, "gridRollout", #"t.json: gridRollout must be a number between 0 and 1 (got a string "0.3")"#),
        (#"{"gridRollout": true}"#, "gridRollout", "t.json: gridRollout must be a number between 0 and 1 (got true)"),
        (#"{"defaultLayout": 3}"#, "defaultLayout", "t.json: defaultLayout must be a layout name of lower-case letters, digits, '-' or '_' (got 3)"),
        (#"{"defaultLayout": "Grid View"}"#, "defaultLayout", nil),
        (#"{"defaultLayout": ""}"#, "defaultLayout", nil),
        (#"{"onboarding": 1}"#, "onboarding", "t.json: onboarding must be true or false (got 1)"),
        (#"{"onboarding": "yes"}"#, "onboarding", nil),
        (#"{"experiment": ["a", "b"]}"#, "experiment", nil),
        (#"{"experiment": {"groups": ["a", "b"]}}"#, "experiment.name", nil),
        (#"{"experiment": {"name": "x", "groups": ["a"]}}"#, "experiment.groups", nil),
        (#"{"experiment": {"name": "x", "groups": ["a", "a"]}}"#, "experiment.groups", nil),
        (#"{"experiment": {"name": "x", "groups": ["a", 2]}}"#, "experiment.groups", nil),
        (#"{"experiment": {"name": "x", "groups": ["a", "b"], "weights": [1, 1]}}"#, "experiment.weights", nil),
        (#"{"gridRolout": 0.3}"#, "gridRolout", nil),
    ] as [(String, String, String?)])
    func namesTheBadField(json: String, field: String, message: String?) {
        #expect {
            _ = try Toggles(json: Data(json.utf8), file: "t.json")
        } throws: { error in
            guard let error = error as? TogglesError else { return false }
            return error.file == "t.json" && error.field == field && (message == nil || error.description == message)
        }
    }

    @Test func rejectsFilesThatAreNotJSONObjects() {
        for json in ["", "{", "not json", #"{"a":}"#, "[1, 2]", "0.5"] {
            #expect(throws: TogglesError.self, "\(json)") { try Toggles(json: Data(json.utf8), file: "t.json") }
            let error = try? #require(throws: TogglesError.self) { try Toggles(json: Data(json.utf8), file: "t.json") }
            #expect(error?.field == nil)
            #expect(error?.description.hasPrefix("t.json: ") == true)
        }
        #expect(throws: TogglesError(file: "t.json", field: nil, reason: "is empty")) { try Toggles(json: Data(), file: "t.json") }
    }

    @Test(arguments: [
        ("{\n  \"onboarding\": tru\n}", "line 2, column 17: expected a value (a string in double quotes, a number, true, false, null, [ or {), not 't'"),
        ("{\n  \"defaultLayout\": \"list\"\n  \"onboarding\": true\n}", "line 3, column 3: expected ',' or '}', not '\"'"),
        ("{\"rollout\": {\"grid\": .1}}", "line 1, column 22: expected a value (a string in double quotes, a number, true, false, null, [ or {), not '.'"),
        ("{\"défaut\": 1, x}", "line 1, column 15: expected a key in double quotes, not 'x'"),
        ("{\"experiments\": [\n", "line 2, column 1: the file ends where a value was expected"),
        ("{\"onboarding\": true", "line 1, column 20: the file ends before the object is closed with '}'"),
        ("{\"onboarding\": true}}", "line 1, column 21: unexpected '}' after the end of the JSON value"),
    ])
    func aSyntaxErrorNamesItsLineAndColumn(json: String, place: String) throws {
        let error = try #require(throws: TogglesError.self) { try Toggles(json: Data(json.utf8), file: "t.json") }
        #expect(error.description == "t.json: is not valid JSON at \(place)")
    }

    @Test func unreadableFileSaysWhy() throws {
        let file = try TogglesFile()
        defer { file.remove() }
        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: false)
        let error = try #require(throws: TogglesError.self) { try ToggleRouter(path: file.path) }
        #expect(error.description == "\(file.path): cannot be read (Is a directory)")
    }

    @Test func missingFileNamesTheFile() throws {
        let file = try TogglesFile()
        defer { file.remove() }
        let error = try #require(throws: TogglesError.self) { try ToggleRouter(path: file.path) }
        #expect(error.description == "\(file.path): does not exist")
    }

    @Test func reloadKeepsTheOldOnABadFileAndTakesAGoodOne() throws {
        let file = try TogglesFile(#"{"defaultLayout": "list", "gridRollout": 0.1}"#)
        defer { file.remove() }
        let router = try ToggleRouter(path: file.path)
        #expect(router.reloadIfChanged() == .unchanged)

        try file.write(#"{"defaultLayout": "list", "gridRollout": 2}"#)
        guard case .rejected(let error) = router.reload() else {
            Issue.record("a bad file was accepted")
            return
        }
        #expect(error.field == "gridRollout")
        #expect(router.toggles.gridRollout == 0.1)
        #expect(router.lastRejection?.message == error.description, "kept for the pages that show it")

        try file.write(#"{"defaultLayout": "grid", "gridRollout": 0.5, "onboarding": true}"#)
        let good = Toggles(defaultLayout: "grid", gridRollout: 0.5, onboarding: true)
        #expect(router.reload() == .reloaded(good))
        #expect(router.lastRejection == nil)
        #expect(router.toggles == good && router.decisions.showsOnboarding(for: "v"))
        #expect(router.reload() == .unchanged)

        try FileManager.default.removeItem(atPath: file.path)
        #expect(router.reloadIfChanged() == .rejected(TogglesError(file: file.path, field: nil, reason: "does not exist")))
        #expect(router.reloadIfChanged() == .unchanged, "a bad file is reported once, not on every poll")
        #expect(router.toggles == good)
        try file.write(#"{"defaultLayout": "list"}"#)
        #expect(router.reloadIfChanged() == .reloaded(Toggles()))
    }

    @Test func readersSeeWholeSnapshotsWhileReloading() async throws {
        let file = try TogglesFile(#"{"defaultLayout": "list", "gridRollout": 0}"#)
        defer { file.remove() }
        let router = try ToggleRouter(path: file.path)
        let valid: Set<Toggles.Pair> = [.init("list", 0), .init("grid", 1)]
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for index in 0..<100 {
                    try? file.write(index % 2 == 0 ? #"{"defaultLayout": "grid", "gridRollout": 1}"# : #"{"defaultLayout": "list", "gridRollout": 0}"#)
                    router.reload()
                }
                return true
            }
            for _ in 0..<2 {
                group.addTask {
                    (0..<20_000).allSatisfy { _ in
                        let toggles = router.toggles
                        return valid.contains(.init(toggles.defaultLayout, toggles.gridRollout))
                    }
                }
            }
            for await consistent in group { #expect(consistent) }
        }
    }
}

extension Toggles {
    /// The two fields the concurrency test flips together.
    struct Pair: Hashable {
        let layout: String
        let rollout: Double
        init(_ layout: String, _ rollout: Double) {
            self.layout = layout
            self.rollout = rollout
        }
    }
}

@Suite struct PreparedDecisionsTests {
    /// What does not depend on the visitor is worked out once per toggles version, not per request.
    @Test func theDecisionsArePreparedOncePerVersion() throws {
        let file = try TogglesFile(#"{"defaultLayout": "grid", "rows": {"trending": false}}"#)
        defer { file.remove() }
        let router = try ToggleRouter(path: file.path)
        let first = router.decisions, again = router.decisions
        #expect(first.prepared === again.prepared, "every request of a version shares one")
        #expect(first.prepared.hiddenRows == ["trending"])
        #expect(first.plan(for: "v").hiddenRows == ["trending"])

        try file.write(#"{"defaultLayout": "grid", "rows": {"trending": true}}"#)
        #expect(router.reload() != .unchanged)
        let next = router.decisions
        #expect(next.prepared !== first.prepared, "a new version is prepared anew")
        #expect(next.plan(for: "v").hiddenRows.isEmpty)
        #expect(router.reload() == .unchanged)
        #expect(router.decisions.prepared === next.prepared, "an unchanged file keeps what was prepared")
    }
}
