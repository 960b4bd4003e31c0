import MicroHTTP
import ScreenKit

/// The onion: `/onboarding` (the New Year notice), its dismissal, and the layout card.
struct OnboardingRoutes {
    static let dismissPath = "/onboarding/dismiss"
    let services: AppServices

    func register(in router: inout Router) {
        router.get("/onboarding") { request in
            // Its own page: the way back goes along with the dismissal's post.
            let back = ReturnPath.resolve(request, isModal: ReturnPath.isOnboarding)
            let visit = services.visit(request)
            // Shown here as over the home: each dismissal in the log follows a showing.
            services.analytics(for: visit).record(.onboardingShown)
            return visit.page(NewYearContent.onion(dismissURL: Self.dismissPath, returningTo: back), configuration: services.page)
        }
        router.get(LayoutChoice.choosePath) { request in layoutCard(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post(Self.dismissPath) { request in dismiss(request) }
            posts.post(LayoutChoice.choosePath) { request in try choose(request) }
        }
    }

    /// The close button and every supporting button land here; the notice does not come back,
    /// and the visitor is back where it came up (the home it covered, or where they came from).
    func dismiss(_ request: Request) -> Response {
        let visit = services.visit(request)
        services.analytics(for: visit).record(.onboardingDismissed)
        var response = visit.redirect(to: ReturnPath.resolve(request, isModal: ReturnPath.isOnboarding))
        response.setCookie(SetCookie(name: Visit.onboardedCookie, value: "1", maxAge: 365 * 24 * 3600))
        return response
    }

    /// Closing the card chooses nothing: a link back to where the visitor was.
    func layoutCard(_ request: Request) -> Response {
        let template = OnboardingTemplate()
        template.embed(LayoutChoice(factory: services.factory, items: services.items))
        let back = ReturnPath.resolve(request, isModal: ReturnPath.isOnboarding)
        return services.visit(request).page(template.wrapInModalContainer(dismissURL: back, dismissal: .link),
                                            configuration: services.page)
    }

    func choose(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        guard let layout = try request.form.single("layout"), services.factory.has(layout) else {
            throw HTTPError(.badRequest, "Choose one of the layouts: \(services.factory.names.joined(separator: ", ")).")
        }
        services.analytics(for: visit).record(.layoutChosen, layout: layout, properties: ["via": "onboarding"])
        var response = visit.redirect(to: "/")
        response.setCookie(SetCookie(name: Visit.layoutCookie, value: layout, maxAge: 365 * 24 * 3600))
        response.setCookie(SetCookie(name: Visit.onboardedCookie, value: "1", maxAge: 365 * 24 * 3600))
        return response
    }
}
