import Basics
import Foundation

/// Building query strings the app links or redirects to.
enum URLQuery {
    /// `text` as one query value: everything but unreserved ASCII percent-encoded.
    static func component(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }
}
