import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

/// 1,100 slow-body and idle keep-alive connections from four loopback addresses do not keep a
/// normal client from being served: no address gets more than its share of the slots, a
/// trickled body is cut off after the connection timeout, and idle ones are reclaimed.
@Suite struct SlowClientFloodTests {
    static let addresses = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]
    static let perAddress = 275  // 1,100 in all

    struct Opened: Sendable {
        var slowBodies = 0
        var idle = 0
        var slowChecked = 0
        var slowClosed = 0
        var slowAnswered = 0
    }

    @Test func aNormalClientIsServedWhile1100SlowConnectionsAreOpen() throws {
        let server = try ServerProcess(arguments: [
            "--port", "0", "--connection-timeout", "3",
            "--public", ServerProcess.publicFolder])
        let port = server.port
        let stop = DispatchSemaphore(value: 0)
        let openedSoFar = Atomic<Int>(0)
        let openers = Threads.start(Self.addresses.count) { index -> Opened in
            var opened = Opened()
            var slow: [HTTPConnection] = [], idle: [HTTPConnection] = []
            for number in 0..<Self.perAddress {
                guard let connection = try? HTTPConnection(port: port, timeoutSeconds: 1, source: Self.addresses[index]) else {
                    continue
                }
                if number.isMultiple(of: 2) {
                    // A megabyte announced, a byte sent: the rest would trickle in forever.
                    guard (try? connection.send("POST /report HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                                                + "Content-Length: 1000000\r\n\r\na")) != nil else { continue }
                    slow.append(connection)
                    opened.slowBodies += 1
                    openedSoFar.add(1, ordering: .relaxed)
                } else {
                    guard (try? connection.request("GET", "/healthz"))?.status == 200 else { continue }
                    idle.append(connection)
                    opened.idle += 1
                    openedSoFar.add(1, ordering: .relaxed)
                }
            }
            stop.wait()
            // Long past the 3 s timeout: the server has cut off every trickled body, with a 408
            // when the client could still read it.
            for connection in slow.prefix(20) {
                opened.slowChecked += 1
                let answer = try? connection.readResponse()
                if answer?.status == 408 { opened.slowAnswered += 1 }
                if answer == nil || answer?.status == 408, connection.isClosedByPeer() { opened.slowClosed += 1 }
            }
            _ = idle
            return opened
        }
        try eventually("the flood is under way") { openedSoFar.load(ordering: .relaxed) >= 200 }
        var latencies: [Duration] = [], failures = 0
        let clock = ContinuousClock()
        let end = clock.now + .seconds(8)
        // A new connection for each request, as new visitors come: each needs a free slot.
        while clock.now < end {
            let start = clock.now
            let client = try? HTTPConnection(port: port, timeoutSeconds: 5)
            if (try? client?.request("GET", "/healthz"))??.status == 200 {
                latencies.append(clock.now - start)
            } else {
                failures += 1
            }
            usleep(5_000)  // a new visitor every few milliseconds over the whole window, not a burst
        }
        for _ in Self.addresses { stop.signal() }
        let opened = openers.wait()
        let sorted = latencies.sorted()
        let p99 = sorted.isEmpty ? Duration.seconds(999) : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        let slowBodies = opened.map(\.slowBodies).reduce(0, +), idle = opened.map(\.idle).reduce(0, +)
        let summary = "\(latencies.count) answered, \(failures) failed, p99 \(p99); \(slowBodies) slow bodies "
            + "(\(opened.map(\.slowAnswered).reduce(0, +)) of those checked answered 408), \(idle) idle"
        #expect(failures == 0, "\(summary)")
        #expect(latencies.count > 100, "\(summary)")
        #expect(p99 < .milliseconds(100), "\(summary)")
        #expect(opened.map(\.slowClosed).reduce(0, +) == opened.map(\.slowChecked).reduce(0, +),
                "every trickled body checked was cut off; \(summary)")
        #expect(opened.map(\.slowAnswered).reduce(0, +) == opened.map(\.slowChecked).reduce(0, +), "\(summary)")
        #expect(try server.client.get("/healthz").status == 200)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}
