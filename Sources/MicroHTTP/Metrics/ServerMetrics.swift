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
    private let stripes: [Stripe]
    /// `statusIndex` of every status below 600, looked up rather than searched for on every request.
    private let statusIndices: [UInt8]
    /// The buckets' bounds in nanoseconds, as the clock reads.
    private let bucketBounds: [UInt64]
    /// `labels.count`, kept rather than read through the static's lazy initialisation on every request.
    private let statusCount = ServerMetrics.labels.count
    let openConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)

    /// One table of counters: per route, requests by status, the latency histogram and the
    /// nanoseconds spent; then the body bytes sent. Unchecked `Sendable`: the counters are only
    /// ever touched through their atomic operations, and the memory lives as long as the stripe.
    final class Stripe: @unchecked Sendable {
        let counters: UnsafeMutablePointer<Atomic<Int>>
        let count: Int

        init(count: Int) {
            self.count = count
            counters = .allocate(capacity: count)
            for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
        }

        deinit {
            counters.deinitialize(count: count)
            counters.deallocate()
        }

        func add(_ value: Int, at index: Int) { counters[index].add(value, ordering: .relaxed) }
        func value(at index: Int) -> Int { counters[index].load(ordering: .relaxed) }
    }

    init(routes: [String]) {
        self.routes = routes + ["unmatched"]
        let routeCount = routes.count + 1
        let counters = routeCount * (Self.labels.count + Self.buckets.count + 1 + 1) + 1
        stripes = (0..<8).map { _ in Stripe(count: counters) }
        statusIndices = (0..<600).map { UInt8(Self.statusIndex($0)) }
        bucketBounds = Self.buckets.map { UInt64(($0 * 1e9).rounded()) }
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
        let stripe = stripes[Int((UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 61)]
        stripe.add(1, at: routeIndex * statusCount + statusIndex)
        stripe.add(1, at: histogramStart + routeIndex * (bucketBounds.count + 1) + bucket)
        stripe.add(Int(truncatingIfNeeded: nanoseconds), at: nanosecondsStart + routeIndex)
        stripe.add(bytes, at: bytesIndex)
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
        for stripe in stripes {
            for index in requests.indices { requests[index] += stripe.value(at: index) }
            for index in histogram.indices { histogram[index] += stripe.value(at: histogramStart + index) }
            for index in nanoseconds.indices { nanoseconds[index] += stripe.value(at: nanosecondsStart + index) }
            snapshot.bytesSent += stripe.value(at: bytesIndex)
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
