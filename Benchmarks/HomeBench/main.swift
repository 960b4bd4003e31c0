// Calls the app's `GET /?layout=grid` handler in-process, as the server would for a returning
// visitor (cache hit), and prints the median time per call: the app's share of a home request
// without HTTP, with the event limits on but never reached (as scripts/bench runs the server).
// Usage: home-bench PUBLIC CONTENT TOGGLES REPORT-LOG; HOME_BENCH_ROUNDS=N measures N rounds of
// 1,000 calls (20), for a profiler.
import Foundation
import HomeApp
import MicroHTTP

func runHomeBench() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 5 else {
        print("usage: home-bench PUBLIC CONTENT TOGGLES REPORT-LOG")
        exit(2)
    }
    var configuration = AppConfiguration(
        publicFolder: arguments[1], contentFile: arguments[2], togglesFile: arguments[3], reportLog: arguments[4])
    configuration.reportVisitorRate = 1_000_000
    configuration.reportVisitorBurst = 1_000_000
    configuration.reportAddressRate = 1_000_000
    configuration.reportAddressBurst = 1_000_000
    let app = try HomeApplication(configuration: configuration)
    defer { app.shutdown() }
    guard case .found(let handler, _) = app.makeRouter().resolve(.get, []) else { fatalError("no home route") }
    let request = Request(
        method: .get, target: "/?layout=grid", pathSegments: [], query: QueryParameters([("layout", "grid")]),
        headers: Headers([("Host", "127.0.0.1"), ("Cookie", "visitor=0123456789abcdef0123456789abcdef; onboarded=1")]),
        cookies: ["visitor": "0123456789abcdef0123456789abcdef", "onboarded": "1"])
    var bytes = 0
    for _ in 0..<2_000 { bytes = try size(of: handler(request)) }
    let clock = ContinuousClock()
    var samples: [Duration] = []
    for _ in 0..<(Int(ProcessInfo.processInfo.environment["HOME_BENCH_ROUNDS"] ?? "") ?? 20) {
        let start = clock.now
        for _ in 0..<1_000 { bytes = try size(of: handler(request)) }
        samples.append((clock.now - start) / 1_000)
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let nanoseconds = median.components.attoseconds / 1_000_000_000 + median.components.seconds * 1_000_000_000
    print("home-bench: GET /?layout=grid handler (cache hit): median \(Double(nanoseconds / 10) / 100) µs per call, \(bytes) bytes")
}

func size(of response: Response) -> Int {
    switch response.body {
    case .bytes(let bytes): bytes.count
    case .spliced(let body): body.count
    default: -1
    }
}

try runHomeBench()
