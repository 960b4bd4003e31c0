import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import MicroHTTP

/// A QA override: what a QA link made in `/admin/qa` forces (an experiment's group or a layout)
/// and until when. It travels signed, in the link and then in the `qa` cookie of whoever opened
/// it: the payload in URL-safe base64, a dot, and the HMAC of the payload under the server's
/// secret (the CSRF key, with its own prefix), so any instance with the same `--secret` honours it
/// and nobody can make or stretch one without the secret.
/// A class: every visit holds one or none, and a reference keeps copying a visit cheap.
final class QAOverride: Sendable, Equatable {
    static let cookieName = "qa"
    static let openPath = "/qa"
    static let endPath = "/qa/end"
    static let tokenField = "token"
    /// What a link may last, as `/admin/qa` offers it.
    static let lifetimes: [(label: String, seconds: Int)] = [
        ("1 hour", 3600), ("6 hours", 6 * 3600), ("1 day", 86400), ("3 days", 3 * 86400), ("7 days", 7 * 86400),
    ]
    static let longestLifetime = 7 * 86400

    let forced: VisitorPlan.Override
    /// Seconds since 1970 (UTC) when it stops.
    let expiry: Int

    init(forced: VisitorPlan.Override, expiry: Int) {
        self.forced = forced
        self.expiry = expiry
    }

    static func == (one: QAOverride, other: QAOverride) -> Bool { one.forced == other.forced && one.expiry == other.expiry }

    /// Why a token is not honoured.
    enum Refusal: Error, Equatable {
        /// Not one this site signed: altered, cut short, or made with another secret.
        case damaged
        /// Signed, but its time is over.
        case expired(at: Int)
    }

    /// What it forces, for the banner and the admin page: `group "grid" of experiment "home-layout"`.
    var summary: String {
        switch forced {
        case .group(let experiment, let group): "group \u{201C}\(group)\u{201D} of experiment \u{201C}\(experiment)\u{201D}"
        case .layout(let layout): "the \(layout) layout"
        }
    }

    /// Lines: kind, expiry, then the experiment and group or the layout (names never hold a newline).
    private var payload: String {
        switch forced {
        case .group(let experiment, let group): "group\n\(expiry)\n\(experiment)\n\(group)"
        case .layout(let layout): "layout\n\(expiry)\n\(layout)"
        }
    }

    func token(signedWith csrf: CSRFProtection) -> String {
        let payload = payload
        return Base64URL.encode(Array(payload.utf8)) + "." + csrf.signature(of: payload, after: "qa:")
    }

    /// The override `token` carries, checked: its signature first, then its time.
    static func read(_ token: String, csrf: CSRFProtection, now: Int) -> Result<QAOverride, Refusal> {
        guard token.utf8.count <= 1024, let dot = token.firstIndex(of: "."),
              let bytes = Base64URL.decode(token[..<dot]), let payload = String(validating: bytes, as: UTF8.self),
              csrf.isValidSignature(String(token[token.index(after: dot)...]), of: payload, after: "qa:")
        else { return .failure(.damaged) }
        let lines = payload.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3, let expiry = Int(lines[1]) else { return .failure(.damaged) }
        let forced: VisitorPlan.Override
        switch (lines[0], lines.count) {
        case ("group", 4): forced = .group(experiment: lines[2], group: lines[3])
        case ("layout", 3): forced = .layout(lines[2])
        default: return .failure(.damaged)
        }
        guard expiry > now else { return .failure(.expired(at: expiry)) }
        return .success(QAOverride(forced: forced, expiry: expiry))
    }

    /// The override of a request's `qa` cookie, when it is valid now. Every request asks, so a
    /// header without the bytes `qa=` is passed over with `memmem`, not parsed.
    static func current(in cookies: Cookies, csrf: CSRFProtection) -> QAOverride? {
        current(in: cookies, mayHold: cookies.mayHold("qa"), csrf: csrf)
    }

    /// `current(in:csrf:)` for a caller that asked `cookies.mayHold("qa")` already.
    static func current(in cookies: Cookies, mayHold: Bool, csrf: CSRFProtection) -> QAOverride? {
        guard mayHold, let cookie = cookies[cookieName] else { return nil }
        return try? read(cookie, csrf: csrf, now: Int(Date().timeIntervalSince1970)).get()
    }

    /// The expiry as people read it: `Fri 27 Nov 2026, 14:05 UTC`.
    var expiryText: String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = .gmt
        let parts = utc.dateComponents([.weekday, .day, .month, .year, .hour, .minute],
                                       from: Date(timeIntervalSince1970: TimeInterval(expiry)))
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        return "\(weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 1) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970), "
            + "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute) UTC"
    }
}

extension Base64URL {
    static func encode(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { encode($0) } }

    /// The bytes of unpadded URL-safe base64, nil when `text` is not that.
    static func decode(_ text: Substring) -> [UInt8]? {
        var standard = text.replacing("-", with: "+").replacing("_", with: "/")
        guard !standard.contains("=") else { return nil }
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: String(standard)).map(Array.init)
    }
}
