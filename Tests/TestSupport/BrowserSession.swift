/// A visitor as a browser is one: one keep-alive connection, cookies kept between requests,
/// the CSRF token read from the page.
public final class BrowserSession {
    public let port: UInt16
    public private(set) var cookies: [String: String] = [:]
    public private(set) var csrfToken: String?
    private var connection: HTTPConnection?

    public init(port: UInt16) { self.port = port }

    @discardableResult
    public func get(_ target: String, headers: [(String, String)] = []) throws -> HTTPResponse {
        let response = try send("GET", target, headers: headers)
        if let token = Self.csrfToken(in: response.text) { csrfToken = token }
        return response
    }

    /// Posts `fields` urlencoded with the session's CSRF token added.
    @discardableResult
    public func post(_ target: String, _ fields: [(String, String)], withToken: Bool = true) throws -> HTTPResponse {
        let all = withToken ? fields + [("_csrf", csrfToken ?? "")] : fields
        let body = all.map { "\(FormEncoding.encode($0))=\(FormEncoding.encode($1))" }.joined(separator: "&")
        return try send("POST", target, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                        body: Array(body.utf8))
    }

    private func send(_ method: String, _ target: String, headers: [(String, String)],
                      body: [UInt8] = []) throws -> HTTPResponse {
        var all = headers
        if !cookies.isEmpty {
            all.append(("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: "; ")))
        }
        let response: HTTPResponse
        do {
            response = try open().request(method, target, headers: all, body: body)
        } catch {
            connection = nil  // the server closed it (or a timeout): one retry on a new connection
            response = try open().request(method, target, headers: all, body: body)
        }
        if response.header("Connection")?.lowercased() == "close" { connection = nil }
        for header in response.headers("Set-Cookie") {
            let pair = header.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            if header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }

    private func open() throws -> HTTPConnection {
        if let connection { return connection }
        let fresh = try HTTPConnection(port: port)
        connection = fresh
        return fresh
    }

    /// The token of `<meta name="csrf-token" content="…">`.
    public static func csrfToken(in html: String) -> String? {
        guard let range = html.range(of: "<meta name=\"csrf-token\" content=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
