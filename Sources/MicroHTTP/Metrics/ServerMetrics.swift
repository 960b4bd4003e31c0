import Glibc
import Synchronization

/// What the server counts for `/metrics`: requests by route and status, their latency, the body
/// bytes sent, open connections and streams. Each request adds to one of a few striped tables of
/// atomic counters (a thread keeps to its stripe, so they are all but uncontended) with relaxed
/// adds and no lock; a scrape sums the stripes. Hand-written rather than swift-metrics: the hot
/// path is two clock reads, two table look-ups and four adds, with no label lookups.
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
    /// `statusIndex` of every status below 600, looked up rather than searched for on every request.
    private let statusIndices: [UInt8]
    /// The buckets' bounds in nanoseconds, as the clock reads.
    private let bucketBounds: [UInt64]
    /// `labels.count`, kept rather than read through the static's lazy initialisation on every request.
    private let statusCount = ServerMetrics.labels.count
    let openConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)

    /// The stripes, one table of counters each and all in one allocation: per route, requests
    /// by status, the latency histogram and the nanoseconds spent; then the body bytes sent.
    /// Touched only through the counters' atomic operations; freed with the metrics.
    nonisolated(unsafe) private let counters: UnsafeMutablePointer<Atomic<Int>>
    private static let stripes = 8
    /// Counters in one stripe.
    private let stripeCount: Int

    init(routes: [String]) {
        self.routes = routes + ["unmatched"]
        let routeCount = routes.count + 1
        stripeCount = routeCount * (Self.labels.count + Self.buckets.count + 1 + 1) + 1
        counters = .allocate(capacity: Self.stripes * stripeCount)
        for index in 0..<Self.stripes * stripeCount { (counters + index).initialize(to: Atomic(0)) }
        statusIndices = (0..<600).map { UInt8(Self.statusIndex($0)) }
        bucketBounds = Self.buckets.map { UInt64(($0 * 1e9).rounded()) }
    }

    deinit {
        counters.deinitialize(count: Self.stripes * stripeCount)
        counters.deallocate()
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

    /// Where a stripe's parts start: requests by route and status, then the histogram, then the
    /// nanoseconds by route, then the bytes.
    private var histogramStart: Int { routes.count * statusCount }
    private var nanosecondsStart: Int { histogramStart + routes.count * (Self.buckets.count + 1) }
    private var bytesIndex: Int { nanosecondsStart + routes.count }

    /// One request answered: `route` as the router numbered it (nil: none matched).
    func record(route: Int?, status: Int, startedAt: UInt64, bytes: Int) {
        let nanoseconds = Self.now() &- startedAt
        let routeIndex = route ?? routes.count - 1
        let statusIndex = (0..<statusIndices.count).contains(status) ? Int(statusIndices[status]) : statusCount - 1
        var bucket = 0
        while bucket < bucketBounds.count, nanoseconds > bucketBounds[bucket] { bucket += 1 }
        // Thread handles lie megabytes apart with the same low bits: hashed whole (multiply, top
        // three bits), so the server's threads land on different stripes and rarely share a line.
        let stripe = counters + Int((UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 61) &* stripeCount
        stripe[routeIndex * statusCount + statusIndex].add(1, ordering: .relaxed)
        stripe[histogramStart + routeIndex * (bucketBounds.count + 1) + bucket].add(1, ordering: .relaxed)
        stripe[nanosecondsStart + routeIndex].add(Int(truncatingIfNeeded: nanoseconds), ordering: .relaxed)
        stripe[bytesIndex].add(bytes, ordering: .relaxed)
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
        var requests = Array(repeating: 0, count: routes.count * statusCount)
        var histogram = Array(repeating: 0, count: routes.count * (Self.buckets.count + 1))
        var nanoseconds = Array(repeating: 0, count: routes.count)
        var snapshot = Snapshot()
        for number in 0..<Self.stripes {
            let stripe = counters + number * stripeCount
            func value(_ index: Int) -> Int { stripe[index].load(ordering: .relaxed) }
            for index in requests.indices { requests[index] += value(index) }
            for index in histogram.indices { histogram[index] += value(histogramStart + index) }
            for index in nanoseconds.indices { nanoseconds[index] += value(nanosecondsStart + index) }
            snapshot.bytesSent += value(bytesIndex)
        }
        let seconds = nanoseconds.map { Double($0) / 1e9 }
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
