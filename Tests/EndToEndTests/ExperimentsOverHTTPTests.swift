import Foundation
import Testing
import TestSupport

/// Experiments through the real `dynamic-home` process: the toggles file is checked against the
/// app's layouts before it listens, and the experiments page keeps the report log's access rule.
@Suite struct ExperimentsOverHTTPTests {
    let folder: TemporaryDirectory
    let publicFolder = ServerProcess.publicFolder

    init() throws { folder = try TemporaryDirectory("experiments") }

    func toggles(_ text: String) throws -> String {
        let path = folder.path("toggles.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aTogglesFileNamingAnUnknownLayoutEndsItWithOneLine() throws {
        let path = try toggles(#"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "carousel"}]}]}"#)
        let process = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--toggles", path,
                                                    "--report-log", folder.path("reports.jsonl")], waitForListening: false)
        let status = process.waitForExit()
        #expect(status != 0 && status != nil)
        #expect(CommandLineTests.errorLine(process.log) == "dynamic-home: --toggles: \(path): experiments[0].groups[1].layout "
                + #"names the layout "carousel", which this app does not have (layouts: list, grid)"#, "\(process.log)")
    }

    @Test func boundToAllInterfacesTheExperimentsPageNeedsTheToken() throws {
        let path = try toggles(#"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}"#)
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--toggles", path,
                                                   "--report-log", folder.path("reports.jsonl"),
                                                   "--host", "0.0.0.0", "--report-token", "s3cret-token-for-tests"])
        let refused = try server.client.get("/reports/experiments")
        #expect(refused.status == 401 && refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let page = try server.client.get("/reports/experiments", headers: [("Authorization", "Bearer s3cret-token-for-tests")])
        #expect(page.status == 200 && page.text.contains("data-experiment=\"e\""))
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}
