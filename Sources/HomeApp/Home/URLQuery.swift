import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Building query strings the app links or redirects to.
enum URLQuery {
    /// `text` as one query value: everything but unreserved ASCII percent-encoded.
    static func component(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }
}
