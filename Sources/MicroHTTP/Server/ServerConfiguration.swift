import Glibc

/// How the server listens and what it allows each client.
public struct ServerConfiguration: Sendable {
    /// An IP literal (`127.0.0.1`, `::1`, `0.0.0.0`) or `localhost`.
    public var host = "127.0.0.1"
    /// 0 binds an ephemeral port; `Server.port` tells which.
    public var port: UInt16 = 8080
    /// libmicrohttpd's thread pool size.
    public var threads = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Idle seconds before a connection is closed (libmicrohttpd's own default is never), and the
    /// most a request head may take to arrive however steadily its bytes trickle in; 0: no limit.
    public var connectionTimeout: UInt32 = 30
    /// Connections open at once; lowered at start if the descriptor limit leaves no room for it.
    public var connectionLimit: UInt32 = 1024
    /// Connections one IP address may hold at once; 0 means no limit. Well below the total, so a
    /// few addresses cannot take every slot (it takes eight to fill them at the defaults).
    public var perIPConnectionLimit: UInt32 = 128
    /// Bytes libmicrohttpd may use per connection for the request line, headers and buffers:
    /// 8 KiB takes heads up to about 7 KB (nginx and Apache allow 8 KB per header line); larger
    /// ones get 431. libmicrohttpd zeroes the whole pool after every request, so a larger one
    /// costs throughput: 16 KiB measured about 10% fewer home pages a second.
    public var connectionMemoryLimit = 8 * 1024
    /// The most arguments a query may have (`a=1&b&&c` has four); more get 414 before anything is
    /// decoded. Each becomes two strings; the app's own addresses use a handful.
    public var queryArgumentLimit = 100
    /// The largest request body accepted; larger ones get 413.
    public var bodyLimit = 1024 * 1024
    /// Paths (as sent, without the query) that take a body of another size than `bodyLimit`,
    /// with that size: an upload form's action.
    public var bodyLimits: [String: Int] = [:]
    /// How long shutdown waits for requests in flight.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Renders the page of every error response (404, 405, 413, 500, a thrown `HTTPError`).
    public var errorPage: ErrorPage = .plain()

    /// Proxies whose X-Forwarded-For/-Proto are believed; behind HTTPS, cookies get `Secure` and
    /// responses `Strict-Transport-Security`.
    public var trustedProxies = try! TrustedProxies()
    /// Count requests, latency and connections for `/metrics` (off only to measure what it costs).
    public var metrics = true
    public init() {}

    /// The largest body a request for `target` may carry.
    func bodyLimit(for target: String?) -> Int {
        guard !bodyLimits.isEmpty, let target else { return bodyLimit }
        // Cut at the `?` byte: `prefix(while:)` over Characters ran grapheme breaking on every request.
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(Substring(target.utf8[..<$0])) } ?? target
        return bodyLimits[path] ?? bodyLimit
    }
}
