import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP

/// `GET /qa?token=…` (a QA link: sets the `qa` cookie and goes home) and `POST /qa/end` (the
/// banner's button: forgets it). A link that was altered is a 400 page, one whose time is over a
/// 410, one whose experiment or group is no longer running a 409: each says what to do.
struct QARoutes {
    let services: AppServices

    func register(in router: inout Router) {
        router.get(QAOverride.openPath) { request in try open(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post(QAOverride.endPath) { request in end(request) }
        }
    }

    func open(_ request: Request) throws(HTTPError) -> Response {
        let now = Int(Date().timeIntervalSince1970)
        let override: QAOverride
        switch QAOverride.read(request.query[QAOverride.tokenField] ?? "", csrf: services.csrf, now: now) {
        case .success(let read): override = read
        case .failure(.damaged):
            // The signature cannot tell an edit from another key, and a restart without --secret
            // changes the key: the likelier cause on a test server, so it is named.
            throw HTTPError(.badRequest, "This QA link is not one this site made: it was altered or cut short, or signed under "
                            + "another secret (without --secret every restart makes a new one, and links made before it end). "
                            + "Copy the whole link again, or make a new one on /admin/qa.")
        case .failure(.expired(let at)):
            throw HTTPError(.gone, "This QA link expired on \(QAOverride(forced: .layout(""), expiry: at).expiryText). "
                            + "Make a new one on /admin/qa.")
        }
        let toggles = services.toggles.toggles
        switch override.forced {
        case .group(let experiment, let group):
            guard toggles.activeExperiments.contains(where: { $0.name == experiment && $0.groups.contains { $0.name == group } }) else {
                throw HTTPError(.conflict, "This QA link forces \(override.summary), which is not running now, so it would change "
                                + "nothing. Make a new one on /admin/qa.")
            }
        case .layout(let layout):
            guard services.factory.has(layout) else {
                throw HTTPError(.conflict, "This QA link forces the layout \u{201C}\(layout)\u{201D}, which this site no longer has.")
            }
        }
        let visit = services.visit(request)
        var response = visit.redirect(to: ReturnPath.home)
        response.setCookie(SetCookie(name: QAOverride.cookieName, value: request.query[QAOverride.tokenField] ?? "",
                                     maxAge: override.expiry - now))
        services.logger.info("QA override opened", metadata: ["request": "\(request.id)", "override": "\(override.summary)"])
        return response
    }

    func end(_ request: Request) -> Response {
        let visit = services.visit(request)
        let back = request.form[ReturnPath.field].flatMap(ReturnPath.local) ?? ReturnPath.home
        var response = visit.redirect(to: back)
        response.setCookie(.deletion(of: QAOverride.cookieName))
        return response
    }
}
