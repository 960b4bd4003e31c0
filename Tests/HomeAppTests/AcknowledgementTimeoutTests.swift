import Foundation
import MicroHTTP
import Testing
import TestSupport

@testable import HomeApp

/// `POST /report` promises its line: a line not written in time gets 503 and `Retry-After`,
/// never a 204 for an event that may be lost; the waiting posts are held by one sweeper.
@Suite struct AcknowledgementTimeoutTests {
    @Test func aLineNotWrittenInTimeIsAnswered503AndAWrittenOne204() throws {
        let deadlines = AcknowledgementDeadlines(timeout: .milliseconds(300), sweepEvery: 0.05)
        try deadlines.start()
        defer { deadlines.shutdown() }
        var router = Router()
        router.get("/never") { _ in
            let acknowledgement = WriteAcknowledgement()
            return .deferred { responder in acknowledgement.attach(responder, deadlines: deadlines) }
        }
        router.get("/soon") { _ in
            let acknowledgement = WriteAcknowledgement()
            return .deferred { responder in
                // Written after the response is attached: the sweeper holds it until then.
                acknowledgement.attach(responder, deadlines: deadlines)
                acknowledgement.written(true)
            }
        }
        let server = try TestServer(router: router)
        let late = try server.client.get("/never")
        #expect(late.status == 503)
        #expect(late.header("Retry-After") == "5")
        #expect(try server.client.get("/soon").status == 204)
        // Answered posts leave the sweeper's queue at its next pass.
        try eventually("the answered post left the sweeper's queue") { deadlines.waiting == 0 }
    }
}
