import Foundation

/// Building query strings the app links or redirects to.
enum URLQuery {
    /// `text` as one query value: everything but unreserved ASCII percent-encoded.
    static func component(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
