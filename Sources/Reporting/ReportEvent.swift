#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One analytics event: a line of the report log (format in docs/design.md, "The report log").
public struct ReportEvent: Sendable, Equatable {
    /// When it happened; written in UTC with millisecond precision.
    public var timestamp: Date
    /// What happened, in lower snake case.
    public var name: Name
    /// The home layout shown (`list`, `grid`, …), where one applies.
    public var layout: String?
    /// The content item's id, where one applies.
    public var item: String?
    /// The anonymous visitor id, where known.
    public var visitor: String?
    /// The id of the HTTP request that caused the event, where known.
    public var request: String?
    /// Further details (e.g. the visitor's experiment group); written as a JSON object, keys sorted.
    public var properties: [String: String]
}

extension ReportEvent {
    /// Creates an event; `timestamp` defaults to now.
    public init(
        _ name: Name, timestamp: Date = Date(), layout: String? = nil, item: String? = nil,
        visitor: String? = nil, request: String? = nil, properties: [String: String] = [:]
    ) {
        // Through the memberwise initializer (hence this extension): assigned field by field, the
        // inlined event was copied whole, every field retained and released, on its way to `record`.
        self.init(
            timestamp: timestamp, name: name, layout: layout, item: item, visitor: visitor, request: request,
            properties: properties)
    }
}

extension ReportEvent {
    /// An event name such as `launch`; the known names are static members.
    public struct Name: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name as written in the log.
        public let rawValue: String

        /// Wraps a raw name; see `isWellFormed` to check client-supplied names.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Wraps a literal name.
        public init(stringLiteral value: String) { self.rawValue = value }

        public var description: String { rawValue }

        /// True when the name is lower snake case: `[a-z][a-z0-9_]*`, at most 64 bytes.
        public var isWellFormed: Bool {
            let bytes = Array(rawValue.utf8)
            guard let first = bytes.first, bytes.count <= 64, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
            else { return false }
            return bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            }
        }

        public static let launch: Name = "launch"
        public static let horizontalSwipe: Name = "horizontal_swipe"
        public static let longSelected: Name = "long_selected"
        public static let shortSelected: Name = "short_selected"
        public static let streamSelected: Name = "stream_selected"
        public static let settingsSelected: Name = "settings_selected"
        public static let layoutReplaced: Name = "layout_replaced"
        public static let layoutChosen: Name = "layout_chosen"
        public static let onboardingShown: Name = "onboarding_shown"
        public static let onboardingDismissed: Name = "onboarding_dismissed"
        public static let searchSubmitted: Name = "search_submitted"
        public static let playStarted: Name = "play_started"
        public static let playProgress: Name = "play_progress"
        public static let myListAdded: Name = "my_list_added"
        public static let myListRemoved: Name = "my_list_removed"
        public static let historyCleared: Name = "history_cleared"
        public static let errorShown: Name = "error_shown"

        /// Every name listed in docs/design.md, in that order.
        public static let known: [Name] = [
            .launch, .horizontalSwipe, .longSelected, .shortSelected, .streamSelected, .settingsSelected,
            .layoutReplaced, .layoutChosen, .onboardingShown, .onboardingDismissed, .searchSubmitted,
            .playStarted, .playProgress, .myListAdded, .myListRemoved, .historyCleared, .errorShown,
        ]
    }
}
