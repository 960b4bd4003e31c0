/// A client that behaves like a browser with JavaScript off: it keeps the cookies the server sets
/// and sends them back, and submits forms from the HTML it was given (hidden fields, checked
/// radios, the pressed button's name and value). It does not follow redirects by itself.
public final class Browser {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public let client: HTTPClient
    public private(set) var cookies: [String: String] = [:]
    /// Every page parsed, kept so their elements (whose parent links are weak) can still find
    /// their form while this browser lives.
    private var pages: [HTMLElement] = []

    /// Kept alive as long as this browser: the server it talks to, e.g. a test fixture.
    private let server: AnyObject?

    public init(port: UInt16, keepingAlive server: AnyObject? = nil) {
        client = HTTPClient(port: port)
        self.server = server
    }

    /// Sets a cookie by hand (e.g. a chosen visitor id); nil removes it.
    public func setCookie(_ name: String, _ value: String?) { cookies[name] = value }

    public func get(_ target: String) throws -> HTTPResponse {
        try remember(client.get(target, headers: cookieHeader))
    }

    /// Posts `fields` urlencoded with this browser's cookies (for hand-made, e.g. forged, posts).
    public func post(_ target: String, form fields: [(String, String)]) throws -> HTTPResponse {
        try remember(client.post(target, form: fields, headers: cookieHeader))
    }

    /// GETs a page and parses it.
    public func page(_ target: String) throws -> (response: HTTPResponse, html: HTMLElement) {
        let response = try get(target)
        let html = try HTMLDocument.parse(response.text)
        pages.append(html)
        return (response, html)
    }

    /// Presses `button`: submits its form as a browser does. `setting` fills text fields or picks
    /// radio values by name.
    public func press(_ button: HTMLElement, setting values: [String: String] = [:]) throws -> HTTPResponse {
        guard let form = button.closest("form") else { throw Failure(description: "the button is in no form") }
        var fields = Self.fields(of: form)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            fields.removeAll { $0.0 == name }
            fields.append((name, value))
        }
        if let name = button["name"] { fields.append((name, button["value"] ?? "")) }
        let action = form["action"] ?? "/"
        if (form["method"] ?? "get").lowercased() == "post" { return try post(action, form: fields) }
        let query = fields.map { "\(FormEncoding.encode($0))=\(FormEncoding.encode($1))" }.joined(separator: "&")
        return try get(action + (action.contains("?") ? "&" : "?") + query)
    }

    /// Follows a redirect: GETs its `Location` without the fragment, as a browser does.
    public func follow(_ response: HTTPResponse) throws -> HTTPResponse {
        guard let location = response.header("Location") else { throw Failure(description: "no Location header") }
        return try get(String(location.prefix { $0 != "#" }))
    }

    /// The fields a form submits besides its buttons: named inputs, radios and checkboxes only when checked.
    static func fields(of form: HTMLElement) -> [(String, String)] {
        form.all("input").compactMap { input in
            guard let name = input["name"] else { return nil }
            let type = (input["type"] ?? "text").lowercased()
            if (type == "radio" || type == "checkbox") && input["checked"] == nil { return nil }
            return (name, input["value"] ?? "")
        }
    }

    private var cookieHeader: [(String, String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    private func remember(_ response: HTTPResponse) -> HTTPResponse {
        for header in response.headers("Set-Cookie") {
            let parts = header.split(separator: ";").map { $0.trimmingPrefix(" ") }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            let expired = parts.dropFirst().contains { $0.lowercased() == "max-age=0" }
            if expired || value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }
}
