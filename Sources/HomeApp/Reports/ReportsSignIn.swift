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
            posts.post(Self.path) { request in try signIn(request) }
            posts.post(Self.signOutPath) { request in try pool.respond { signOut(request) } }
        }
    }

    func form(_ request: Request, failed: Bool = false) -> Response {
        let model = ReportsSignInModel(failed: failed, available: access.token != nil,
                                      signedOut: request.query["signed-out"] != nil)
        return services.visit(request).page(ReportsSignInScreen(viewModel: model), status: failed ? .unauthorized : .ok,
                                            caching: .nowhere,
                                            configuration: services.operatorPage)
    }

    /// Ends the sign-in on every instance and in this browser, then shows the sign-in form.
    func signOut(_ request: Request) -> Response {
        var response = services.visit(request).redirect(to: Self.path + "?signed-out")
        response.setCookie(access.signOut(request))
        return response
    }

    func signIn(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        switch access.signIn(with: request.form["token"], from: request.remoteAddress) {
        case .signedIn(let cookie):
            var response = visit.redirect(to: "/reports")
            response.setCookie(cookie)
            return response
        case .wrong:
            // Rate-limited with every other line of this message, so a guessing run cannot flood the log.
            services.logger.notice("report sign-in refused", metadata: [
                "request": "\(request.id)", "client": "\(request.remoteAddress)"])
            return form(request, failed: true)
        case .lockedOut(let seconds):
            throw ReportsAccess.tooMany(seconds)
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
        writer.write("<form class=\"sign-in__form\" method=\"post\" action=\"/reports/login\">")
        writer.csrfField(scope.context)
        writer.write("<label class=\"field\"><span class=\"field__label\">Report token</span>")
        writer.write("<input type=\"password\" name=\"token\" required autocomplete=\"current-password\"")
        if model.failed { writer.write(" aria-invalid=\"true\" aria-describedby=\"token-error\"") }
        writer.write("></label>")
        if model.failed { writer.write("<p class=\"field__error\" id=\"token-error\">That is not the report token.</p>") }
        writer.write("<button class=\"button button--primary\" type=\"submit\">Sign in</button></form></div>")
    }
}
