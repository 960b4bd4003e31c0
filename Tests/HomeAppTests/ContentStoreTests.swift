import Dispatch
import Foundation
import TestSupport
import Testing
@testable import HomeApp

/// Content store.
@Suite struct ContentStoreTests {
    typealias F = ContentFixtures

    /// A store over a temporary copy of a small catalogue, polling fast so watcher tests stay short.
    struct Setup {
        /// Removed by `cleanUp()` once the watcher has stopped, or on release if `init` throws.
        let directory: TemporaryDirectory
        let file: URL
        let store: ContentStore
        let log = LogRecorder()

        init(_ content: String = F.file(F.longItem, F.shortItem)) throws {
            directory = try F.temporaryDirectory()
            file = directory.url.appendingPathComponent("content.json")
            try F.write(content, to: file)
            store = try ContentStore(contentsOf: file, pollInterval: 0.1, logger: log.logger)
        }

        func cleanUp() {
            store.shutdown()
            directory.remove()
        }
    }

    @Test func aBadFileAtStartUpThrowsTheMessageThatStopsTheServer() throws {
        let directory = try F.temporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("content.json")
        try F.write(F.file(F.longItem.replacingOccurrences(of: #""long""#, with: #""movie""#)), to: file)
        let error = #expect(throws: ContentCatalogError.self) { try ContentStore(contentsOf: file) }
        #expect(error?.description == "\(file.relativePath): item 0: field \"kind\" must be one of long, short, live")
    }

    @Test func theDefaultCatalogueServesAsVersion1() throws {
        let log = LogRecorder()
        let store = try ContentStore(contentsOf: F.defaultContent, publicDirectory: F.publicDirectory, logger: log.logger)
        #expect(store.version == 1)
        #expect(log.entries.map(\.message) == ["Content loaded"])
        #expect(store.catalog.items.count >= 60)
    }

    @Test func reloadPicksUpAChangedFileAndBumpsTheVersion() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(setup.store.version == 1)
        try F.write(F.file(F.longItem, F.shortItem, F.liveItem), to: setup.file)
        #expect(try setup.store.reload().get() == 2)
        let snapshot = setup.store.snapshot
        #expect(snapshot.version == 2)
        #expect(snapshot.catalog.items.map(\.id) == ["m-001", "s-001", "l-001"])
        #expect(setup.log.entries.contains { $0.level == .info && $0.message == "Content reloaded" })
    }

    @Test func aBadNewFileKeepsTheOldCatalogueAndLogsWhy() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let before = setup.store.catalog
        try F.write(F.file(F.longItem, F.longItem), to: setup.file)
        let expected = "\(setup.file.relativePath): item 1: field \"id\" \"m-001\" is already used by item 0"
        #expect(throws: ContentCatalogError(file: setup.file.relativePath, itemIndex: 1, field: "id",
                                            problem: "\"m-001\" is already used by item 0")) {
            try setup.store.reload().get()
        }
        #expect(setup.store.version == 1)
        #expect(setup.store.catalog == before)
        #expect(setup.log.entries.contains { $0.level == .error && $0.message.hasSuffix(expected) })

        try F.write(F.file(F.shortItem), to: setup.file)
        #expect(try setup.store.reload().get() == 2, "a good file after a bad one is accepted")
    }

    @Test func aBrokenEditIsRefusedNamingItsLineAndColumnAndTheRefusalIsKeptUntilTheFileLoads() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(setup.store.lastRejection == nil)
        // The second line: {"id":"s-001","kind" "short",…: the colon missing at column 22.
        let broken = F.shortItem.replacingOccurrences(of: #""kind":"short""#, with: #""kind" "short""#)
        try F.write(#"{"version":1,"items":["# + F.longItem + ",\n" + broken + "]}", to: setup.file)
        let before = Date()
        guard case .failure(let error) = setup.store.reload() else { Issue.record("a broken file was accepted"); return }
        #expect(error.description == "\(setup.file.relativePath): is not valid JSON at line 2, column 22: expected ':' after the key, not '\"'")
        #expect(setup.log.entries.contains { $0.level == .error && $0.message.hasSuffix(error.description) })
        let rejection = try #require(setup.store.lastRejection)
        #expect(rejection.message == error.description)
        #expect(rejection.time >= before.addingTimeInterval(-1) && rejection.time <= Date())

        try F.write(F.file(F.longItem, F.shortItem), to: setup.file)
        #expect(try setup.store.reload().get() == 2)
        #expect(setup.store.lastRejection == nil, "the file loads again")
    }

    @Test func theWatcherReloadsAChangedFileWithoutACallToReload() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try setup.store.start()
        try setup.store.start()  // idempotent: one timer, one reload per change
        try F.write(F.file(F.liveItem), to: setup.file)
        try await eventually { setup.store.version == 2 }
        #expect(setup.store.catalog.items.map(\.id) == ["l-001"])

        // A broken edit is logged once and ignored; the fixed file is then picked up.
        try F.write("{ not json", to: setup.file)
        try await eventually { setup.log.entries.contains { $0.level == .error } }
        #expect(setup.store.version == 2)
        try F.write(F.file(F.longItem, F.liveItem), to: setup.file)
        try await eventually { setup.store.version == 3 }
        #expect(setup.log.entries.filter { $0.level == .error }.count == 1)
    }

    @Test func afterShutdownTheWatcherNoLongerReloads() async throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try setup.store.start()
        setup.store.shutdown()
        // A witness polling as often sees its own change: the stopped watcher had time to see one.
        let witness = try Setup()
        defer { witness.cleanUp() }
        try witness.store.start()
        try F.write(F.file(F.liveItem), to: setup.file)
        try F.write(F.file(F.liveItem), to: witness.file)
        try await eventually("the witness reloaded") { witness.store.version == 2 }
        #expect(setup.store.version == 1)
        #expect(try setup.store.reload().get() == 2)
    }

    @Test func readersOnManyThreadsSeeVersionsOnlyGrowWhileReloadsRun() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let reloads = 40
        // Issues are collected and checked on the test's thread: #expect needs the test's task context.
        let violations = LogRecorder()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            if worker == 0 {
                for _ in 0..<reloads { setup.store.reload() }
                return
            }
            var last = 0
            for _ in 0..<2_000 {
                let snapshot = setup.store.snapshot
                if snapshot.version < last || snapshot.catalog.items.count != 2 {
                    violations.append(.error, "worker \(worker) saw version \(snapshot.version) after \(last)")
                }
                last = snapshot.version
            }
        }
        #expect(violations.entries.isEmpty)
        #expect(setup.store.version == 1 + reloads)
    }
}
