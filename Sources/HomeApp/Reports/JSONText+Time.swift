import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

extension JSONText {
    /// A report timestamp as a JSON string, or `null`.
    static func time(_ date: Date?) -> String {
        date.map { string(ReportTimestamp.string(from: $0)) } ?? "null"
    }
}
