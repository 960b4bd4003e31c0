/// Convenience requests against a test server, each on a fresh connection.
public struct HTTPClient: Sendable {
    public let port: UInt16

    public init(port: UInt16) { self.port = port }

    public func get(_ target: String, headers: [(String, String)] = []) throws -> HTTPResponse {
        try HTTPConnection(port: port).request("GET", target, headers: headers)
    }

    public func head(_ target: String, headers: [(String, String)] = []) throws -> HTTPResponse {
        try HTTPConnection(port: port).request("HEAD", target, headers: headers)
    }

    /// Posts `fields` urlencoded, as a browser submits a form.
    public func post(_ target: String, form fields: [(String, String)],
                     headers: [(String, String)] = []) throws -> HTTPResponse {
        let body = fields.map { "\(FormEncoding.encode($0))=\(FormEncoding.encode($1))" }.joined(separator: "&")
        return try HTTPConnection(port: port).request(
            "POST", target, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
            body: Array(body.utf8))
    }

    public func post(_ target: String, body: [UInt8], contentType: String,
                     headers: [(String, String)] = []) throws -> HTTPResponse {
        try HTTPConnection(port: port).request("POST", target, headers: [("Content-Type", contentType)] + headers,
                                               body: body)
    }
}

/// `application/x-www-form-urlencoded` encoding as browsers do it: space as `+`.
public enum FormEncoding {
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
