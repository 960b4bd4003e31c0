import Basics
import Logging
import MicroHTTP
import Synchronization

/// Limits the events a client writes, per visitor and per client address, so one client cannot
/// fill the log (and the disk): past the limit `POST /report` gets 429 with `Retry-After`, and a
/// page that writes an event as it is served (the home, a search, a selection) is still answered
/// but writes none; each refusal is counted, with one log line per limited client a minute.
/// A class: every visit's analytics holds it, and copying a struct with a logger retained each part.
final class EventRateLimit: Sendable {
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

    /// A limit's buckets, and the log lines about the clients it refuses: one a minute each.
    /// Kept in place, never copied: taking from them retains nothing.
    struct Buckets: ~Copyable, Sendable {
        /// A rate of 0 turns the limit off.
        let isOn: Bool
        let events: TokenBuckets<MixedKey>
        let logLines = TokenBuckets<MixedKey>(rate: 1.0 / 60, burst: 1)

        init(_ limit: Limit) {
            isOn = limit.rate > 0
            events = TokenBuckets(rate: limit.rate, burst: limit.burst)
        }
    }

    /// By the visitor id's two words folded into one: two visitors share a bucket by a chance in
    /// 2^64, or when one knows the other's id (and could as well send it).
    let visitors: Buckets
    /// By `Request.clientKey`: no address is written as text unless a line is logged.
    let addresses: Buckets
    let counts = Counts()
    let logger: Logger

    init(visitor: Limit, address: Limit, logger: Logger) {
        visitors = Buckets(visitor)
        addresses = Buckets(address)
        self.logger = logger
    }

    /// `POST /report`, before anything else: 429 past the client address's limit.
    func check(address request: Request) throws(HTTPError) {
        if let retryAfter = take(addresses, MixedKey(request.clientKey), at: Self.now(), kind: "address",
                                 name: request.remoteAddress, counter: counts.address, what: "report posts limited") {
            throw Self.tooMany("address", retryAfter)
        }
    }

    /// `POST /report`: 429 past the visitor's limit.
    func check(visitor: VisitorID) throws(HTTPError) {
        if let retryAfter = take(visitors, Self.key(visitor), at: Self.now(), kind: "visitor", name: visitor.text,
                                 counter: counts.visitor, what: "report posts limited") {
            throw Self.tooMany("visitor", retryAfter)
        }
    }

    /// For an event the server writes as it serves a page (a launch, a search, a selection):
    /// whether this client may write one more. The same buckets as `POST /report`, one budget of
    /// events per client; past it the page is still served and only the event is left out.
    func allowsEvent(from request: Request, visitor: VisitorID) -> Bool {
        // Both limits off read no clock.
        guard addresses.isOn || visitors.isOn else { return true }
        let now = Self.now()
        return take(addresses, MixedKey(request.clientKey), at: now, kind: "address",
                    name: request.remoteAddress, counter: counts.address, what: "events limited") == nil
            && take(visitors, Self.key(visitor), at: now, kind: "visitor", name: visitor.text,
                    counter: counts.visitor, what: "events limited") == nil
    }

    /// Takes a token; the seconds until one is back when there is none (counted, and logged once
    /// a minute per client).
    private func take(_ buckets: borrowing Buckets, _ key: MixedKey, at now: @autoclosure () -> Double,
                      kind: String, name: @autoclosure () -> String, counter: borrowing Atomic<Int>,
                      what: Logger.Message) -> Int? {
        // A limit that is off reads no clock.
        guard buckets.isOn else { return nil }
        let now = now()
        guard case .limited(let retryAfter) = buckets.events.take(key, now: now) else { return nil }
        counter.add(1, ordering: .relaxed)
        // The refusals not logged since the client's last line, and this one.
        if case .allowed(let unlogged) = buckets.logLines.take(key, now: now) {
            logger.notice(what, metadata: [kind: "\(name())", "refused": "\(unlogged + 1)"])
        }
        return retryAfter
    }

    private static func key(_ visitor: VisitorID) -> MixedKey { MixedKey(visitor.high ^ visitor.low) }

    /// Monotonic seconds, coarse: a rate of events a second needs no finer clock.
    private static func now() -> Double { CoarseClock.seconds }

    private static func tooMany(_ kind: String, _ retryAfter: Int) -> HTTPError {
        var error = HTTPError(.tooManyRequests, "Too many reports from this \(kind); try again in \(retryAfter) s.",
                              headers: Headers([("Retry-After", "\(retryAfter)")]))
        error.logged = false
        return error
    }
}
