import MicroHTTP
import ScreenKit

extension CSRFProtection {
    /// Around every form post: refuses one whose `_csrf` was not issued to the visitor its
    /// cookie names (403), or that gives it twice (400). A visitor without a cookie has never been
    /// sent a form.
    var middleware: Middleware {
        { [self] request, next in
            // A body of another type carries no form, so no token: say that, not that the form expired.
            guard request.headers.withFirst("Content-Type", { FormType($0) != nil }) else {
                let type = request.headers["Content-Type"] ?? ""
                let sent = type.isEmpty ? "none was given" : "it was \(type.prefix(80).filter { $0.isASCII && !$0.isNewline })"
                throw HTTPError(.unsupportedMediaType, "This address takes a form: the request's Content-Type must be "
                                + "\(FormType.names), and \(sent).")
            }
            // A token sent twice is no form this site drew: refused naming the field, as any other.
            let token = try request.form.single(RenderContext.csrfFieldName)
            guard let visitor = Visitor.id(in: request.cookies), isValid(token, for: visitor) else {
                throw HTTPError(.forbidden, "This form is out of date or did not come from this site. "
                                + "Go back, reload the page and try again.")
            }
            return try next(request)
        }
    }
}
