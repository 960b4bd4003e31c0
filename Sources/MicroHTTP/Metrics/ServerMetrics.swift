import Glibc
import Synchronization

/// What the server counts for `/metrics`: requests by route and status, their latency, the body
/// bytes sent, open connections and streams. Each request adds to one of a few striped,
/// lock-protected tables (a thread keeps to its stripe, so the locks are all but uncontended);
/// a scrape sums the stripes. Hand-written rather than swift-metrics: the hot path is two clock
/// reads and one short critical section over preallocated arrays, with no label lookups.
public final class ServerMetrics: Sendable {
    /// Upper bounds of the latency histogram, in seconds.
    public static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    /// The statuses counted apart; any other is counted under its class (`2xx`, `4xx`, …), and a
    /// request the connection closed on without a response (status 0) under `none`.
    static let statuses: [Int] = [200, 204, 206, 301, 302, 303, 304, 400, 403, 404, 405, 409, 413, 429, 431, 500, 503]
    static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]
    static let labels = statuses.map(String.init) + statusClasses + ["none"]

    /// The route labels: the router's patterns, then `unmatched`.
    public let routes: [String]
    private let stripes: [Stripe]
    let openConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)

    final class Stripe: Sendable {
        struct Counts {
            var requests: [Int]
            var histogram: [Int]
            var seconds: [Double]
            var bytes = 0
        }
        let counts: Mutex<Counts>
        init(routes: Int) {
            counts = Mutex(Counts(requests: Array(repeating: 0, count: routes * ServerMetrics.labels.count),
                                  histogram: Array(repeating: 0, count: routes * (ServerMetrics.buckets.count + 1)),
                                  seconds: Array(repeating: 0, count: routes)))
        }
    }

    init(routes: [String]) {
        self.routes = routes + ["unmatched"]
        stripes = (0..<8).map { _ in Stripe(routes: routes.count + 1) }
    }

    /// Monotonic nanoseconds, for request start and end.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func statusIndex(_ status: Int) -> Int {
        if let index = statuses.firstIndex(of: status) { return index }
        guard (100..<600).contains(status) else { return labels.count - 1 }
        return statuses.count + status / 100 - 1
    }

    /// One request answered: `route` as the router numbered it (nil: none matched).
    func record(route: Int?, status: Int, startedAt: UInt64, bytes: Int) {
        let seconds = Double(Self.now() &- startedAt) / 1e9
        let routeIndex = route ?? routes.count - 1
        let statusIndex = Self.statusIndex(status)
        let bucket = Self.buckets.firstIndex { seconds <= $0 } ?? Self.buckets.count
        // Thread handles lie megabytes apart with the same low bits: hashed whole (multiply, top
        // three bits), so the server's threads land on different stripes and rarely share a lock.
        let stripe = stripes[Int((UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 61)]
        let statusCount = Self.labels.count
        stripe.counts.withLock { counts in
            counts.requests[routeIndex * statusCount + statusIndex] += 1
            counts.histogram[routeIndex * (Self.buckets.count + 1) + bucket] += 1
            counts.seconds[routeIndex] += seconds
            counts.bytes += bytes
        }
    }

    /// A consistent-enough sum of the stripes.
    public struct Snapshot: Sendable {
        public var requests: [(route: String, status: String, count: Int)] = []
        /// Per route: cumulative counts at each bucket bound (and +Inf), the sum of seconds, the count.
        public var latency: [(route: String, cumulative: [Int], sum: Double, count: Int)] = []
        public var bytesSent = 0
        public var openConnections = 0
        public var openStreams = 0

        public init() {}
    }

    public func snapshot() -> Snapshot {
        let statusCount = Self.labels.count
        var requests = Array(repeating: 0, count: routes.count * statusCount)
        var histogram = Array(repeating: 0, count: routes.count * (Self.buckets.count + 1))
        var seconds = Array(repeating: 0.0, count: routes.count)
        var snapshot = Snapshot()
        for stripe in stripes {
            stripe.counts.withLock { counts in
                for index in requests.indices { requests[index] += counts.requests[index] }
                for index in histogram.indices { histogram[index] += counts.histogram[index] }
                for index in seconds.indices { seconds[index] += counts.seconds[index] }
                snapshot.bytesSent += counts.bytes
            }
        }
        for (routeIndex, route) in routes.enumerated() {
            for (statusIndex, label) in Self.labels.enumerated() where requests[routeIndex * statusCount + statusIndex] > 0 {
                snapshot.requests.append((route, label, requests[routeIndex * statusCount + statusIndex]))
            }
            let row = histogram[(routeIndex * (Self.buckets.count + 1))..<((routeIndex + 1) * (Self.buckets.count + 1))]
            let total = row.reduce(0, +)
            guard total > 0 else { continue }
            var running = 0
            snapshot.latency.append((route, row.map { running += $0; return running }, seconds[routeIndex], total))
        }
        snapshot.openConnections = openConnections.load(ordering: .relaxed)
        snapshot.openStreams = openStreams.load(ordering: .relaxed)
        return snapshot
    }
}
