/// A client that behaves like a browser with JavaScript off: one keep-alive connection, the
/// cookies the server sets sent back, the CSRF token read from each page, and forms submitted
/// from the HTML it was given (hidden fields, checked radios, the pressed button's name and
/// value). It does not follow redirects by itself.
public final class Browser {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public let port: UInt16
    public private(set) var cookies: [String: String] = [:]
    /// The token of the last page's `<meta name="csrf-token">`.
    public private(set) var csrfToken: String?
    /// The target of the last page a GET showed (not a redirect): where the browser is.
    public private(set) var currentPage: String?
    /// Sends `Referer` (that page's URL) with each request, as a browser does under the server's
    /// `Referrer-Policy: same-origin`. Off by default.
    public var sendsReferrer = false
    private var connection: HTTPConnection?
    /// Every page parsed, kept so their elements (whose parent links are weak) can still find
    /// their form while this browser lives.
    private var pages: [HTMLElement] = []

    /// Kept alive as long as this browser: the server it talks to, e.g. a test fixture.
    private let server: AnyObject?

    public init(port: UInt16, keepingAlive server: AnyObject? = nil) {
        self.port = port
        self.server = server
    }

    /// Sets a cookie by hand (e.g. a chosen visitor id); nil removes it.
    public func setCookie(_ name: String, _ value: String?) { cookies[name] = value }

    @discardableResult
    public func get(_ target: String, headers: [(String, String)] = []) throws -> HTTPResponse {
        let response = try send("GET", target, headers: headers)
        if let token = Self.csrfToken(in: response.text) { csrfToken = token }
        if !(300..<400).contains(response.status) { currentPage = target }
        return response
    }

    /// Posts `fields` urlencoded with this browser's cookies (for hand-made, e.g. forged, posts).
    @discardableResult
    public func post(_ target: String, form fields: [(String, String)]) throws -> HTTPResponse {
        let body = fields.map { "\(FormEncoding.encode($0))=\(FormEncoding.encode($1))" }.joined(separator: "&")
        return try send("POST", target, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                        body: Array(body.utf8))
    }

    /// Posts `fields` with the last page's CSRF token added, as the page's own forms would.
    @discardableResult
    public func post(_ target: String, withToken fields: [(String, String)]) throws -> HTTPResponse {
        try post(target, form: fields + [("_csrf", csrfToken ?? "")])
    }

    /// The token of `<meta name="csrf-token" content="…">`.
    public static func csrfToken(in html: String) -> String? {
        guard let range = html.range(of: "<meta name=\"csrf-token\" content=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Posts `fields` and `files` as `multipart/form-data`, with the last page's CSRF token added,
    /// as a form with a file input does.
    @discardableResult
    public func post(_ target: String, multipart fields: [(String, String)],
                     files: [(name: String, filename: String, bytes: [UInt8])]) throws -> HTTPResponse {
        let boundary = "----TestBoundary\(UInt64.random(in: 0...UInt64.max))"
        var body: [UInt8] = []
        for (name, value) in fields + [("_csrf", csrfToken ?? "")] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\n"
                           + "Content-Type: application/json\r\n\r\n").utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try send("POST", target, headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
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

    /// The fields a form submits besides its buttons: named inputs, radios and checkboxes only when
    /// checked, each named select's selected option (else its first), and named text areas.
    public static func fields(of form: HTMLElement) -> [(String, String)] {
        let inputs: [(String, String)] = form.all("input").compactMap { input in
            guard let name = input["name"] else { return nil }
            let type = (input["type"] ?? "text").lowercased()
            if (type == "radio" || type == "checkbox") && input["checked"] == nil { return nil }
            return (name, input["value"] ?? "")
        }
        let selects: [(String, String)] = form.all("select").compactMap { select in
            guard let name = select["name"] else { return nil }
            let options = select.all("option")
            guard let option = options.first(where: { $0["selected"] != nil }) ?? options.first else { return nil }
            return (name, option["value"] ?? option.text)
        }
        let areas: [(String, String)] = form.all("textarea").compactMap { area in area["name"].map { ($0, area.text) } }
        return inputs + selects + areas
    }

    private var cookieHeader: [(String, String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    /// One request on the kept connection; a connection the server closed is replaced once.
    private func send(_ method: String, _ target: String, headers: [(String, String)],
                      body: [UInt8] = []) throws -> HTTPResponse {
        var all = headers + cookieHeader
        if sendsReferrer, let currentPage, !headers.contains(where: { $0.0.lowercased() == "referer" }) {
            all.append(("Referer", "http://localhost\(currentPage)"))  // the Host this client sends
        }
        let response: HTTPResponse
        do {
            response = try open().request(method, target, headers: all, body: body)
        } catch {
            connection = nil
            response = try open().request(method, target, headers: all, body: body)
        }
        if response.header("Connection")?.lowercased() == "close" { connection = nil }
        return remember(response)
    }

    private func open() throws -> HTTPConnection {
        if let connection { return connection }
        let fresh = try HTTPConnection(port: port)
        connection = fresh
        return fresh
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
