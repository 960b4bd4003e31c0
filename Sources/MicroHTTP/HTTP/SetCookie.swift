/// A `Set-Cookie` response header.
public struct SetCookie: Sendable, Equatable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var path: String = "/"
    /// Seconds until expiry; 0 deletes the cookie; nil makes a session cookie.
    public var maxAge: Int?
    public var httpOnly = true
    public var secure = false
    public var sameSite: SameSite? = .lax

    public init(name: String, value: String, path: String = "/", maxAge: Int? = nil,
                httpOnly: Bool = true, secure: Bool = false, sameSite: SameSite? = .lax) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// A cookie that tells the browser to forget `name`.
    public static func deletion(of name: String, path: String = "/") -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0)
    }

    /// The header value. Bytes a cookie cannot carry are percent-encoded so a value can never
    /// split the header or add attributes.
    public var headerValue: String {
        var text = "\(name)=\(Self.encode(value)); Path=\(Self.encode(path))"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if httpOnly { text += "; HttpOnly" }
        if secure || sameSite == SameSite.none { text += "; Secure" }
        if let sameSite { text += "; SameSite=\(sameSite.rawValue)" }
        return text
    }

    private static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x21, 0x23...0x2B, 0x2D...0x3A, 0x3C...0x5B, 0x5D...0x7E:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
