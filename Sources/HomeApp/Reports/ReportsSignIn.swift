import MicroHTTP
import ScreenKit

/// `/reports/login`: the form that trades the report token for a cookie; `/reports/logout` ends it.
struct ReportsSignIn {
    static let path = "/reports/login"
    static let signOutPath = "/reports/logout"
    let services: AppServices
    let access: ReportsAccess
    /// Where a sign-out is recorded: it syncs a file, never on a page thread.
    let pool: RequestPool

    func register(in router: inout Router) {
        router.get(Self.path) { request in form(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post(Self.path) { request in signIn(request) }
            posts.post(Self.signOutPath) { request in try pool.respond { signOut(request) } }
        }
    }

    /// The "Sign out" button of every operator page a sign-in opened.
    static func renderSignOut(into writer: inout HTMLWriter, context: RenderContext, cssClass: StaticString) {
        writer.write("<form class=\"")
        writer.write(cssClass)
        writer.write("\" method=\"post\" action=\"/reports/logout\">")
        writer.csrfField(context)
        writer.write("<button class=\"button button--secondary\" type=\"submit\">Sign out</button></form>")
    }

    /// Where a sign-in goes on: the operator page that asked for it (`next`), else the report log.
    static func next(_ value: String?) -> String? {
        guard let value, let path = ReturnPath.local(value), !path.hasPrefix(Self.path), !path.hasPrefix(Self.signOutPath),
              ["/reports", "/admin", "/metrics"].contains(where: { path == $0 || path.hasPrefix($0 + "/") || path.hasPrefix($0 + "?")
                                                                  || path.hasPrefix($0 + ".") })
        else { return nil }
        return path
    }

    /// The sign-in page for a request that was refused for want of one: it comes back there.
    static func link(for request: Request) -> String {
        guard let next = next(request.target) else { return path }
        return path + "?next=" + URLQuery.component(next)
    }

    /// The form; after a wrong token (`?refused`) with its message and a 401, after a post from a
    /// locked-out address (`?locked`) with when to try again and a 429 while the lockout lasts.
    /// A wrong token that itself started a lockout says both, with the 429: else the lockout would
    /// show only on the next try.
    func form(_ request: Request) -> Response {
        let refused = request.query["refused"] != nil
        let lockout = request.query["locked"] == nil && !refused ? nil : access.throttle.lockout(for: request.remoteAddress)
        let model = ReportsSignInModel(failed: refused, available: access.token != nil,
                                      signedOut: request.query["signed-out"] != nil,
                                      next: Self.next(request.query["next"] ?? request.form["next"]), lockout: lockout)
        var response = services.visit(request).page(ReportsSignInScreen(viewModel: model),
                                                    status: lockout != nil ? .tooManyRequests : refused ? .unauthorized : .ok,
                                                    caching: .nowhere, configuration: services.operatorPage)
        if let lockout { response.headers.set("Retry-After", "\(lockout)") }
        return response
    }

    /// The form again after a post (`?refused` or `?locked`, with its `next`), rather than drawn
    /// for the post: Back to it or a reload is then no resubmission of the token (the browser's
    /// "Confirm Form Resubmission").
    private func formAgain(_ flag: String, after request: Request) -> Response {
        var target = Self.path + "?" + flag
        if let next = Self.next(request.form["next"]) { target += "&next=" + URLQuery.component(next) }
        return services.visit(request).redirect(to: target)
    }

    /// Ends the sign-in on every instance and in this browser, then shows the sign-in form.
    func signOut(_ request: Request) -> Response {
        var response = services.visit(request).redirect(to: Self.path + "?signed-out")
        response.setCookie(access.signOut(request))
        // An admin page answering a post is kept by the browser, for Back: gone with the sign-in.
        response.headers.set("Clear-Site-Data", "\"cache\"")
        return response
    }

    func signIn(_ request: Request) -> Response {
        switch access.signIn(with: request.form["token"], from: request.remoteAddress) {
        case .signedIn(let cookie):
            var response = services.visit(request).redirect(to: Self.next(request.form["next"]) ?? "/reports")
            response.setCookie(cookie)
            return response
        case .wrong:
            // Rate-limited with every other line of this message, so a guessing run cannot flood the log.
            services.logger.notice("report sign-in refused", metadata: [
                "request": "\(request.id)", "client": "\(request.remoteAddress)"])
            return formAgain("refused", after: request)
        case .lockedOut:
            // The token was not compared; the form says for how long the address is locked out.
            return formAgain("locked", after: request)
        }
    }
}

final class ReportsSignInScreen: GenericViewController<ReportsSignInModel, ReportsSignInView> {
    override var pageTitle: String? { "Sign in to the report log" }
}

struct ReportsSignInModel {
    let failed: Bool
    let available: Bool
    let signedOut: Bool
    /// The operator page the sign-in goes on to.
    let next: String?
    /// Seconds until this address may try a token again; nil when it may now.
    var lockout: Int64? = nil
}

final class ReportsSignInView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "sign-in" }

    func renderContent(_ model: ReportsSignInModel, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer, context: scope.context)
        writer.write("<div class=\"sign-in__body\"><h1>Report log</h1>")
        guard model.available else {
            writer.write("<p>This server was started without <code>--report-token</code>, so its report log cannot be read from other machines.</p></div>")
            return
        }
        if model.signedOut { writer.write("<p class=\"sign-in__notice\" role=\"status\">You are signed out.</p>") }
        if let lockout = model.lockout {
            writer.write("<p class=\"sign-in__notice\" role=\"alert\" id=\"sign-in-locked\">")
            writer.text("Too many wrong report tokens from this address: try again in \(lockout) s. Until then no token is checked.")
            writer.write("</p>")
        }
        writer.write("<form class=\"sign-in__form\" method=\"post\" action=\"/reports/login\">")
        writer.csrfField(scope.context)
        if let next = model.next {
            writer.hiddenField("next", next)
        }
        writer.write("<label class=\"field\"><span class=\"field__label\">Report token</span>")
        writer.write("<input type=\"password\" name=\"token\" required autocomplete=\"current-password\"")
        if model.failed { writer.write(" aria-invalid=\"true\" aria-describedby=\"token-error\"") }
        writer.write("></label>")
        if model.failed { writer.write("<p class=\"field__error\" id=\"token-error\">That is not the report token.</p>") }
        writer.write("<button class=\"button button--primary\" type=\"submit\">Sign in</button></form></div>")
    }
}
