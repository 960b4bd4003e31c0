import Foundation
import MicroHTTP

/// Who may read the report log. Bound to a loopback address the pages are open; bound to any
/// other address (0.0.0.0 included) they need the report token, as a bearer header or through
/// the sign-in form, which sets a cookie holding the token's signature (never the token).
struct ReportAccess: Sendable {
    static let cookieName = "report_access"
    let isOpen: Bool
    let token: String?
    let csrf: CSRFProtection

    init(host: String, token: String?, csrf: CSRFProtection) {
        isOpen = Self.isLoopback(host)
        // The app refuses to start with a shorter one; a library user that skips that check
        // still gets closed pages rather than pages an empty token opens.
        self.token = token.flatMap { $0.utf8.count >= AppConfiguration.minimumSecretBytes ? $0 : nil }
        self.csrf = csrf
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Throws 401 unless the request may read the reports.
    func authorize(_ request: Request) throws(HTTPError) {
        if isOpen || isAuthorized(request) { return }
        let reason = token == nil
            ? "The report log is private: this server listens beyond this machine and was started without --report-token."
            : "The report log is private. Sign in with the report token, or send it as a bearer token."
        throw HTTPError(.unauthorized, reason, headers: Headers([("WWW-Authenticate", "Bearer realm=\"reports\"")]))
    }

    func isAuthorized(_ request: Request) -> Bool {
        guard let token else { return false }
        if let header = request.headers["Authorization"], header.hasPrefix("Bearer ") {
            let candidate = header.dropFirst("Bearer ".count)
            return !candidate.isEmpty && matches(String(candidate), token)
        }
        return csrf.isValidSignature(request.cookies[Self.cookieName], of: token, after: "reports:")
    }

    /// Whether `candidate` is the token; the cookie to set when it is. A missing or empty
    /// candidate never is, whatever the token.
    func signIn(with candidate: String?) -> SetCookie? {
        guard let token, let candidate, !candidate.isEmpty, matches(candidate, token) else { return nil }
        return SetCookie(name: Self.cookieName, value: csrf.signature(of: token, after: "reports:"),
                         path: "/", maxAge: 7 * 24 * 3600, sameSite: .strict)
    }

    /// Constant-time comparison: hashes first, so length differences leak nothing either.
    private func matches(_ candidate: String, _ token: String) -> Bool {
        let a = Hashing.sha256(candidate), b = Hashing.sha256(token)
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
