/// An HTTP status code with its reason phrase.
public struct Status: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let ok = Status(rawValue: 200)
    public static let noContent = Status(rawValue: 204)
    public static let seeOther = Status(rawValue: 303)
    public static let notModified = Status(rawValue: 304)
    public static let badRequest = Status(rawValue: 400)
    public static let unauthorized = Status(rawValue: 401)
    public static let forbidden = Status(rawValue: 403)
    public static let notFound = Status(rawValue: 404)
    public static let methodNotAllowed = Status(rawValue: 405)
    public static let requestTimeout = Status(rawValue: 408)
    public static let conflict = Status(rawValue: 409)
    public static let gone = Status(rawValue: 410)
    public static let payloadTooLarge = Status(rawValue: 413)
    public static let uriTooLong = Status(rawValue: 414)
    public static let unsupportedMediaType = Status(rawValue: 415)
    public static let tooManyRequests = Status(rawValue: 429)
    public static let requestHeaderFieldsTooLarge = Status(rawValue: 431)
    public static let internalServerError = Status(rawValue: 500)
    public static let serviceUnavailable = Status(rawValue: 503)

    /// The standard reason phrase, for error pages.
    public var reasonPhrase: String {
        switch rawValue {
        case 200: "OK"
        case 204: "No Content"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(rawValue)"
        }
    }
}
