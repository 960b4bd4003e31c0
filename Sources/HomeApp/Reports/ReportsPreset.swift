#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ranges `/reports` offers as links (`?last=`): they follow the clock, so a bookmark stays current.
enum ReportsPreset: String, CaseIterable {
    case hour, day, week, month, all

    var label: String {
        switch self {
        case .hour: "Last hour"
        case .day: "24 hours"
        case .week: "7 days"
        case .month: "30 days"
        case .all: "Everything"
        }
    }

    /// How far back from now; nil for everything.
    var span: TimeInterval? {
        switch self {
        case .hour: 3_600
        case .day: 86_400
        case .week: 7 * 86_400
        case .month: 30 * 86_400
        case .all: nil
        }
    }
}
