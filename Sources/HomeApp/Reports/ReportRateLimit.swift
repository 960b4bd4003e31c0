import Foundation
import Logging
import MicroHTTP
import Synchronization

/// Limits `POST /report` per visitor and per client address, so one client cannot fill the log
/// (and the disk): past the limit it gets 429 with `Retry-After`, counted, and one log line per
/// limited client a minute, whatever it sends.
struct ReportRateLimit: Sendable {
    /// Events a second and the burst allowed; a rate of 0 turns that limit off.
    struct Limit: Sendable {
        var rate: Double
        var burst: Int

        init(rate: Double, burst: Int) {
            self.rate = rate
            self.burst = burst
        }
    }

    /// Posts refused so far, by which limit.
    final class Counts: Sendable {
        let visitor = Atomic<Int>(0)
        let address = Atomic<Int>(0)
    }

    let visitors: TokenBuckets?
    let addresses: TokenBuckets?
    let counts = Counts()
    let logger: Logger

    init(visitor: Limit, address: Limit, logger: Logger) {
        visitors = visitor.rate > 0 ? TokenBuckets(rate: visitor.rate, burst: visitor.burst) : nil
        addresses = address.rate > 0 ? TokenBuckets(rate: address.rate, burst: address.burst) : nil
        self.logger = logger
    }

    func check(address: String) throws(HTTPError) {
        try check(addresses, address, kind: "address", counter: counts.address)
    }

    func check(visitor: String) throws(HTTPError) {
        try check(visitors, visitor, kind: "visitor", counter: counts.visitor)
    }

    private func check(_ buckets: TokenBuckets?, _ key: String, kind: String, counter: borrowing Atomic<Int>) throws(HTTPError) {
        guard let buckets else { return }
        guard case .limited(let retryAfter, let logLimited) = buckets.take(key, now: ProcessInfo.processInfo.systemUptime)
        else { return }
        counter.add(1, ordering: .relaxed)
        if let logLimited {
            logger.notice("report posts limited", metadata: [kind: "\(key)", "refused": "\(logLimited)"])
        }
        var error = HTTPError(.tooManyRequests, "Too many reports from this \(kind); try again in \(retryAfter) s.",
                              headers: Headers([("Retry-After", "\(retryAfter)")]))
        error.logged = false
        throw error
    }
}
