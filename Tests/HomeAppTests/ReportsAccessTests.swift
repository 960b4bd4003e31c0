import Foundation
import Logging
import MicroHTTP
import Synchronization
import Testing
import TestSupport
@testable import HomeApp

/// The report token off loopback: guessing is slowed per address, the scheme's case does not
/// matter, and the sign-in cookie expires and is revoked by a new token or secret.
@Suite struct ReportsAccessTests {
    static let token = "a-report-token-long-enough"
    final class Clock: Sendable { let seconds = Atomic<Int>(1_800_000_000) }

    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("report-access") }

    func signOuts(clock: Clock = Clock()) -> SignOuts {
        SignOuts(directory: folder.url.path, database: nil, logger: Logger(label: "test"),
                 now: { clock.seconds.load(ordering: .relaxed) })
    }

    func access(token: String = Self.token, secret: String = "a-secret-of-sixteen+", clock: Clock = Clock(),
                throttle: SignInThrottle = SignInThrottle(), signOuts: SignOuts? = nil) -> ReportsAccess {
        ReportsAccess(token: token, csrf: CSRFProtection(secret: secret), signOuts: signOuts ?? self.signOuts(clock: clock),
                     throttle: throttle, now: { clock.seconds.load(ordering: .relaxed) })
    }

    func request(authorization: String? = nil, cookie: String? = nil, from address: String = "192.0.2.7") -> Request {
        Request(method: .get, target: "/reports", pathSegments: ["reports"],
                headers: Headers(authorization.map { [("Authorization", $0)] } ?? []),
                cookies: Cookies(header: cookie.map { "\(ReportsAccess.cookieName)=\($0)" } ?? ""), remoteAddress: address)
    }

    @Test func theBearerSchemeIsCaseInsensitive() throws {
        let access = access()
        for scheme in ["Bearer", "bearer", "BEARER"] {
            #expect(throws: Never.self) { try access.authorize(request(authorization: "\(scheme) \(Self.token)")) }
        }
        #expect(throws: HTTPError.self) { try access.authorize(request(authorization: "bearer ")) }
    }

    @Test func wrongTokensLockTheAddressOutEvenFromTheRightToken() throws {
        let clock = Clock()
        let access = access(clock: clock)
        for _ in 0..<SignInThrottle.freeFailures {
            guard case .wrong = access.signIn(with: "guess", from: "192.0.2.7") else { Issue.record("not refused"); return }
        }
        guard case .wrong = access.signIn(with: "guess", from: "192.0.2.7") else { Issue.record("not refused"); return }
        guard case .lockedOut(let seconds) = access.signIn(with: Self.token, from: "192.0.2.7") else {
            Issue.record("the right token got through during a lockout"); return
        }
        #expect(seconds > 0)
        do {
            try access.authorize(request(authorization: "Bearer \(Self.token)"))
            Issue.record("a bearer got through during a lockout")
        } catch {
            #expect(error.status == .tooManyRequests)
            #expect(error.headers["Retry-After"] != nil)
        }
        // Another address is not held up.
        guard case .signedIn = access.signIn(with: Self.token, from: "192.0.2.8") else { Issue.record("refused"); return }
    }

    @Test func theCookieExpiresAndANewTokenOrSecretRevokesIt() throws {
        let clock = Clock()
        guard case .signedIn(let cookie) = access(clock: clock).signIn(with: Self.token, from: "192.0.2.7") else {
            Issue.record("refused"); return
        }
        #expect(cookie.maxAge == ReportsAccess.cookieLifetime)
        let signedIn = request(cookie: cookie.value)
        #expect(throws: Never.self) { try access(clock: clock).authorize(signedIn) }
        #expect(throws: HTTPError.self) { try access(token: "another-report-token-long", clock: clock).authorize(signedIn) }
        #expect(throws: HTTPError.self) { try access(secret: "another-secret-sixteen", clock: clock).authorize(signedIn) }
        clock.seconds.add(ReportsAccess.cookieLifetime + 1, ordering: .relaxed)
        #expect(throws: HTTPError.self) { try access(clock: clock).authorize(signedIn) }
        // The old cookie form, a bare signature without an expiry, is not accepted.
        let bare = String(cookie.value.drop { $0 != "." }.dropFirst())
        #expect(throws: HTTPError.self) { try access(clock: Clock()).authorize(request(cookie: bare)) }
    }

    /// Two sign-ins with the token from one address: their cookies.
    static func twoSignIns(_ access: ReportsAccess) throws -> (first: SetCookie, second: SetCookie) {
        guard case .signedIn(let first) = access.signIn(with: token, from: "192.0.2.7"),
              case .signedIn(let second) = access.signIn(with: token, from: "192.0.2.7") else {
            throw HTTPError(.forbidden, "a sign-in was refused")
        }
        return (first, second)
    }

    @Test func signingOutEndsTheSessionOnTheServerAndAcrossARestart() throws {
        let clock = Clock()
        let access = access(clock: clock)
        let (first, second) = try Self.twoSignIns(access)
        #expect(first.value != second.value, "each sign-in is a session of its own")
        let cleared = access.signOut(request(cookie: first.value))
        #expect(cleared.maxAge == 0 && cleared.value.isEmpty)
        // The cookie kept by someone else (a copy, a shared machine) is refused from now on.
        #expect(throws: HTTPError.self) { try access.authorize(request(cookie: first.value)) }
        #expect(throws: Never.self) { try access.authorize(request(cookie: second.value)) }
        // A new process reads the sign-outs back.
        let restarted = self.access(clock: clock, signOuts: signOuts(clock: clock))
        #expect(throws: HTTPError.self) { try restarted.authorize(request(cookie: first.value)) }
        #expect(throws: Never.self) { try restarted.authorize(request(cookie: second.value)) }
    }

    /// A byte that is not UTF-8 costs the sign-outs file its line alone (it cost every sign-out):
    /// the others are still refused after a restart, and the damaged file is kept aside.
    @Test func aDamagedLineInTheSignOutsFileIsSkippedAndTheFileSetAside() throws {
        let clock = Clock()
        let access = access(clock: clock)
        let (first, second) = try Self.twoSignIns(access)
        _ = access.signOut(request(cookie: first.value))
        _ = access.signOut(request(cookie: second.value))
        let path = folder.path(SignOuts.fileName)
        var bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
        bytes.insert(contentsOf: [0xFF, 0xFE, 0x20, 0x31, 0x0A], at: try #require(bytes.firstIndex(of: 0x0A)) + 1)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let restarted = self.access(clock: clock, signOuts: signOuts(clock: clock))
        #expect(throws: HTTPError.self) { try restarted.authorize(request(cookie: first.value)) }
        #expect(throws: HTTPError.self) { try restarted.authorize(request(cookie: second.value)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        let aside = names.filter { $0.hasPrefix(SignOuts.fileName + ".damaged-") }
        #expect(aside.count == 1, "\(names)")
        #expect(aside.first.flatMap { FileManager.default.contents(atPath: folder.path($0)) } == Data(bytes), "kept as it was")
        // Written anew with what counts: the next start finds nothing to set aside.
        let again = self.access(clock: clock, signOuts: signOuts(clock: clock))
        #expect(throws: HTTPError.self) { try again.authorize(request(cookie: second.value)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".damaged-") }.count == 1)
    }

    @Test func aTamperedSessionIsRefused() throws {
        guard case .signedIn(let cookie) = access().signIn(with: Self.token, from: "192.0.2.7") else {
            Issue.record("refused"); return
        }
        var parts = cookie.value.split(separator: ".").map(String.init)
        parts[1] = String(parts[1].reversed())
        #expect(throws: HTTPError.self) { try access().authorize(request(cookie: parts.joined(separator: "."))) }
    }

    @Test func anIPv6ClientIsCountedByItsSlash64() {
        let throttle = SignInThrottle()
        for host in 1...6 { throttle.failed(from: "2001:db8:1:2::\(host)") }
        #expect(throttle.lockout(for: "2001:db8:1:2:ffff::9") != nil)
        #expect(throttle.lockout(for: "2001:db8:1:3::1") == nil)
        #expect(SignInThrottle.key(for: "192.0.2.7") == "192.0.2.7")
    }
}
