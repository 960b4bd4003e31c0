import MicroHTTP

/// The version a change form was drawn from (its `base` field): a change applies only over that
/// version, and a form from an older one gets a conflict. A form without one, or with one that is
/// no version number, is malformed, not stale.
enum AdminBase {
    static func from(_ form: FormFields) throws(HTTPError) -> Int {
        guard let text = form["base"], let base = Int(text), base >= 0 else {
            throw HTTPError(.badRequest, "The form does not say which version it was drawn from (its \"base\" field). "
                + "Reload the page and make the change again; nothing was applied.")
        }
        return base
    }
}
