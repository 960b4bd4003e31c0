#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP

/// Who may read the report log, decided for each request from who asks, never from the address
/// the server binds: with a report token set, every request needs it (as a bearer header or
/// through the sign-in form); without one, only a request made on this machine and not passed
/// on by a proxy (`Request.isLocal`) may read. The sign-in sets a cookie holding an expiry, a
/// session id and a signature of both with the token (never the token): it lapses by itself,
/// "Sign out" ends one on every instance (`SignOuts`), and a new token or secret revokes every
/// one. Wrong tokens are counted per client address and lock it out for a while (`SignInThrottle`).
struct ReportsAccess: Sendable {
    static let cookieName = "report_access"
    /// How long a sign-in lasts.
    static let cookieLifetime = 7 * 24 * 3600
    let token: String?
    let csrf: CSRFProtection
    let throttle: SignInThrottle
    /// Sessions ended by "Sign out" before they lapse.
    let signOuts: SignOuts
    /// Wall-clock seconds, for the cookie's expiry; tests move it.
    let now: @Sendable () -> Int

    /// What a sign-in attempt came to.
    enum Outcome {
        case signedIn(SetCookie)
        case wrong
        case lockedOut(seconds: Int64)
    }

    init(token: String?, csrf: CSRFProtection, signOuts: SignOuts, throttle: SignInThrottle = SignInThrottle(),
         now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) {
        self.signOuts = signOuts
        // The app refuses to start with a shorter one; a library user that skips that check
        // still gets closed pages rather than pages an empty token opens.
        self.token = token.flatMap { $0.utf8.count >= AppConfiguration.minimumSecretBytes ? $0 : nil }
        self.csrf = csrf
        self.throttle = throttle
        self.now = now
    }

    /// Throws 401 unless the request may read the reports (429 while its address is locked out).
    func authorize(_ request: Request) throws(HTTPError) {
        guard token != nil else {
            if request.isLocal { return }
            // No credential can help: forbidden, not unauthorised.
            throw HTTPError(.forbidden, "The report log is private: this server was started without --report-token, so only requests made on its own machine, not through a proxy, may read it.")
        }
        if let bearer = Self.bearer(in: request) {
            if let seconds = throttle.lockout(for: request.remoteAddress) { throw Self.tooMany(seconds) }
            if let token, !bearer.isEmpty, matches(bearer, token) {
                throttle.succeeded(from: request.remoteAddress)
                return
            }
            throttle.failed(from: request.remoteAddress)
        } else if hasValidCookie(request) {
            return
        }
        throw HTTPError(.unauthorized, "The report log is private. Sign in with the report token, or send it as a bearer token.",
                        headers: Headers([("WWW-Authenticate", "Bearer realm=\"reports\"")]))
    }

    /// The credentials of an `Authorization: Bearer …` header; the scheme in any case (RFC 9110 §11.1).
    static func bearer(in request: Request) -> Substring? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let scheme = parts.first, scheme.lowercased() == "bearer" else { return nil }
        return parts.count > 1 ? parts[1].drop { $0 == " " } : ""
    }

    /// The session of a cookie `<expiry>.<session>.<signature>`: unexpired, signed with this
    /// token under this secret, and not signed out.
    func session(of request: Request) -> (id: Substring, expiry: Int)? {
        guard let token, let value = request.cookies[Self.cookieName] else { return nil }
        let parts = value.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count <= 12, let expiry = Int(parts[0]), expiry > now(),
              parts[1].count == Self.sessionLength,
              csrf.isValidSignature(String(parts[2]), of: "\(expiry):\(parts[1]):\(token)", after: "reports:"),
              !signOuts.contains(parts[1]) else { return nil }
        return (parts[1], expiry)
    }

    func hasValidCookie(_ request: Request) -> Bool { session(of: request) != nil }

    /// Whether `candidate` is the token; the cookie to set when it is. A missing or empty
    /// candidate never is, whatever the token.
    func signIn(with candidate: String?, from address: String) -> Outcome {
        if let seconds = throttle.lockout(for: address) { return .lockedOut(seconds: seconds) }
        guard let token, let candidate, !candidate.isEmpty, matches(candidate, token) else {
            throttle.failed(from: address)
            return .wrong
        }
        throttle.succeeded(from: address)
        let expiry = now() + Self.cookieLifetime
        let session = Self.newSession()
        return .signedIn(SetCookie(name: Self.cookieName,
                                   value: "\(expiry).\(session)." + csrf.signature(of: "\(expiry):\(session):\(token)", after: "reports:"),
                                   path: "/", maxAge: Self.cookieLifetime, sameSite: .strict))
    }

    /// Ends the request's sign-in on the server, not only in this browser; the cookie that clears it.
    func signOut(_ request: Request) -> SetCookie {
        if let session = session(of: request) { signOuts.add(String(session.id), until: session.expiry) }
        return .deletion(of: Self.cookieName)
    }

    /// 16 random bytes, URL-safe base64.
    static let sessionLength = Base64URL.encodedCount(16)

    private static func newSession() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeBytes(of: words) { Base64URL.encode($0) }
    }

    static func tooMany(_ seconds: Int64) -> HTTPError {
        HTTPError(.tooManyRequests, "Too many wrong report tokens from this address. Try again in \(seconds) s.",
                  headers: Headers([("Retry-After", "\(seconds)")]))
    }

    /// Constant-time comparison: hashes first, so length differences leak nothing either.
    private func matches(_ candidate: some StringProtocol, _ token: String) -> Bool {
        let a = Hashing.sha256(String(candidate)), b = Hashing.sha256(token)
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
