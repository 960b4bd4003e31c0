import Foundation
import Glibc
import Testing

@testable import FeatureToggles

/// A named pipe where the toggles file should be is refused at once, never waited on: waiting
/// held up every reload and shutdown.
@Suite struct TogglesFIFOTests {
    @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
        let file = try TogglesFile(#"{"defaultLayout": "list"}"#)
        defer { file.remove() }
        let router = try ToggleRouter(path: file.path)
        try FileManager.default.removeItem(atPath: file.path)
        #expect(mkfifo(file.path, 0o600) == 0)
        // Should the read wait after all, a writer comes by in 3 s and closes: then the error
        // would be about JSON, not about the kind of file.
        let path = file.path
        let unblocker = Thread {
            Thread.sleep(forTimeInterval: 3)  // a safety net against a hang, never reached when the test passes
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        unblocker.start()
        guard case .rejected(let error) = router.reload() else {
            Issue.record("a named pipe was not refused")
            return
        }
        #expect(error.description.contains("is not a regular file"), "\(error)")
        #expect(router.toggles.defaultLayout == "list", "the previous toggles stay")
        #expect(throws: TogglesError.self) { try ToggleRouter(path: path) }
    }
}
