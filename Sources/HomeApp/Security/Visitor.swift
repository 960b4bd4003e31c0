import Basics
import MicroHTTP

/// The anonymous visitor: a random id kept in an HttpOnly, SameSite=Lax cookie.
public struct Visitor: Sendable, Equatable {
    public static let cookieName: StaticString = "visitor"
    /// A year: the id only has to outlive a browsing habit, not identify a person.
    static let lifetime = 365 * 24 * 3600

    public let id: VisitorID
    /// Whether the id was made for this request and must be sent as a cookie.
    public let isNew: Bool

    /// The visitor the request's cookie names, or a new one.
    public init(request: Request) { self.init(cookies: request.cookies) }

    /// The visitor `cookies` name, or a new one.
    init(cookies: Cookies) { self.init(cookieID: Self.id(in: cookies)) }

    /// The visitor whose cookie held `cookieID`, or a new one.
    init(cookieID: VisitorID?) {
        if let cookieID {
            id = cookieID
            isNew = false
        } else {
            id = VisitorID.random()
            isNew = true
        }
    }

    /// The id the visitor cookie holds when it is well formed: parsed from the header's bytes in
    /// place, without a `String`.
    static func id(in cookies: Cookies) -> VisitorID? {
        cookies.id(cookieName)
    }

    /// Adds the visitor cookie to `response` when the id is new.
    public func persist(in response: inout Response) {
        guard isNew else { return }
        response.setCookie(SetCookie(name: "\(Self.cookieName)", value: id.text, maxAge: Self.lifetime))
    }
}
