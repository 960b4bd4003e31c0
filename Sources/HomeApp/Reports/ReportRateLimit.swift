import Foundation
import Logging
import MicroHTTP
import Synchronization

/// Limits the events a client writes, per visitor and per client address, so one client cannot
/// fill the log (and the disk): past the limit `POST /report` gets 429 with `Retry-After`, a search
/// is still answered but writes no event; each refusal is counted, with one log line per limited
/// client a minute, whatever it sends.
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

    /// For a page that writes an event as it is served (a search): whether this client may write
    /// one more. The same buckets as `POST /report`: one budget of events per client.
    func allowsEvent(address: String, visitor: String) -> Bool {
        do {
            try check(addresses, address, kind: "address", counter: counts.address, what: "search events limited")
            try check(visitors, visitor, kind: "visitor", counter: counts.visitor, what: "search events limited")
            return true
        } catch {
            return false
        }
    }

    private func check(_ buckets: TokenBuckets?, _ key: String, kind: String, counter: borrowing Atomic<Int>,
                       what: Logger.Message = "report posts limited") throws(HTTPError) {
        guard let buckets else { return }
        guard case .limited(let retryAfter, let logLimited) = buckets.take(key, now: ProcessInfo.processInfo.systemUptime)
        else { return }
        counter.add(1, ordering: .relaxed)
        if let logLimited {
            logger.notice(what, metadata: [kind: "\(key)", "refused": "\(logLimited)"])
        }
        var error = HTTPError(.tooManyRequests, "Too many reports from this \(kind); try again in \(retryAfter) s.",
                              headers: Headers([("Retry-After", "\(retryAfter)")]))
        error.logged = false
        throw error
    }
}
