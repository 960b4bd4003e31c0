import MicroHTTP
import ScreenKit

extension CSRFProtection {
    /// Around every form post: refuses one whose `_csrf` was not issued to the visitor its
    /// cookie names (403). A visitor without a cookie has never been sent a form.
    var middleware: Middleware {
        { [self] request, next in
            guard let visitor = Visitor.id(in: request.cookies),
                  isValid(request.form[RenderContext.csrfFieldName], for: visitor) else {
                throw HTTPError(.forbidden, "This form is out of date or did not come from this site. "
                                + "Go back, reload the page and try again.")
            }
            return try next(request)
        }
    }
}
