import HTTPTypes
import Hummingbird

/// A rendered page as a response, with the headers dynamic-home puts on its HTML pages.
struct HTML: ResponseGenerator {
    let html: String

    init(_ html: String) { self.html = html }

    func response() -> Response {
        Response(status: .ok, headers: Self.headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    func response(from request: Request, context: some RequestState) throws -> Response { response() }

    private static let headers: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .contentSecurityPolicy: "default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
        .referrerPolicy: "same-origin",
        .xContentTypeOptions: "nosniff",
    ]
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
