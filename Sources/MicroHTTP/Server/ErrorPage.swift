/// What an error page shows: the status, a sentence saying what was wrong, the request id.
public struct ErrorDescription: Sendable {
    public let status: Status
    public let message: String
    public let requestID: String
    /// The request answered, when it got as far as a handler or the router (its cookies say who
    /// was shown the error); nil for a request refused while it was being read.
    public var request: Request? = nil
    /// The address asked for (its path and query), when it is known: a request refused while it
    /// was read has one, so its error can take the form the address answers in.
    public var target: String? = nil

    /// The path asked for: the request's, else the target's up to its query.
    public var path: Substring? { request?.path ?? target.map { $0.prefix { $0 != "?" } } }
}

/// Renders error pages. The app supplies its own styled page; `plain` is MicroHTTP's fallback.
public struct ErrorPage: Sendable {
    public let render: @Sendable (ErrorDescription) -> Response

    public init(render: @escaping @Sendable (ErrorDescription) -> Response) { self.render = render }

    /// A small complete HTML document: the status, the message, the request id; it links
    /// `stylesheet` and ends with a link to `home` (its address and words) when they are given.
    public static func plain(stylesheet: String? = nil, home: (href: String, text: String)? = nil) -> ErrorPage {
        let style = stylesheet.map { "<link rel=\"stylesheet\" href=\"\(escapeHTML($0))\">" } ?? ""
        let back = home.map { "<p><a href=\"\(escapeHTML($0.href))\">\(escapeHTML($0.text))</a></p>" } ?? ""
        return ErrorPage { error in
            let title = "\(error.status.rawValue) \(error.status.reasonPhrase)"
            let html = """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">\
                <meta name="viewport" content="width=device-width, initial-scale=1">\
                <title>\(title)</title>\(style)</head>\
                <body><main class="error-page" data-status="\(error.status.rawValue)"><h1>\(title)</h1>\
                <p>\(escapeHTML(error.message))</p><p class="error-request">Request id: \
                <code>\(escapeHTML(error.requestID))</code></p>\(back)\
                </main></body></html>
                """
            return Response.html(Array(html.utf8), status: error.status)
        }
    }

    static func escapeHTML(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
