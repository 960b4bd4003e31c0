/// What an experiment's sums need of one visitor, and the one place that says how an event changes
/// it and what it adds to the sums: the writer's tallies and the report database's rows both count
/// through this type, so the two can only agree.
public struct VisitorRecord: Sendable, Equatable {
    /// What an event is to an experiment's visitor figures.
    public enum Kind: UInt8, Sendable {
        /// Carries the experiment but counts nothing else: it exposes the visitor.
        case exposure = 0, view, long, short, stream
        /// An error page was shown (`error_shown`).
        case error
        /// A play started (`play_started`).
        case play

        public init(_ name: ReportEvent.Name) {
            self = switch name {
            case .launch: .view
            case .longSelected: .long
            case .shortSelected: .short
            case .streamSelected: .stream
            case .errorShown: .error
            case .playStarted: .play
            default: .exposure
            }
        }
    }

    /// Bits of `flags`.
    public static let long: UInt8 = 1, short: UInt8 = 2, stream: UInt8 = 4, error: UInt8 = 8

    /// Home views; a robot at the counter's limit stops counting.
    public var views: UInt32 = 0
    public var selections: UInt16 = 0
    /// The kinds of selection made and whether an error page was shown (the bits above).
    public var flags: UInt8 = 0
    /// Plays started.
    public var plays: UInt32 = 0

    public init(views: UInt32 = 0, selections: UInt16 = 0, flags: UInt8 = 0, plays: UInt32 = 0) {
        self.views = views
        self.selections = selections
        self.flags = flags
        self.plays = plays
    }

    /// Counts one event; false when it changed nothing.
    @discardableResult
    public mutating func count(_ kind: Kind) -> Bool { change(counting: kind) != nil }

    /// Counts one event and returns what it changed in `sums` (after less before), worked out for
    /// the few fields its kind moves: nil when it changed nothing. The writer's tallies add this
    /// for every event; taking `sums` before and after made and subtracted fourteen fields twice.
    public mutating func change(counting kind: Kind) -> VisitorSums? {
        var change = VisitorSums()
        let v = Int(views), s = Int(selections), p = Int(plays)
        switch kind {
        case .exposure: return nil
        case .view:
            guard views < .max else { return nil }
            views += 1
            change.views = 1
            change.viewSquares = 2 * v + 1
            change.viewSelectionProducts = s
        case .long, .short, .stream:
            guard selections < .max else { return nil }
            selections += 1
            let bit: UInt8 = 1 << (kind.rawValue - 2)
            let first = flags & bit == 0 ? 1 : 0
            flags |= bit
            change.converting = s == 0 ? 1 : 0
            switch kind {
            case .long: change.convertingLong = first
            case .short: change.convertingShort = first
            default: change.convertingStream = first
            }
            change.selections = 1
            change.selectionSquares = 2 * s + 1
            change.viewSelectionProducts = v
        case .error:
            guard flags & Self.error == 0 else { return nil }
            flags |= Self.error
            change.erroring = 1
        case .play:
            guard plays < .max else { return nil }
            plays += 1
            change.playing = p == 0 ? 1 : 0
            change.plays = 1
            change.playSquares = 2 * p + 1
        }
        return change
    }

    /// Adds another part of the same visitor's events (counted elsewhere: another instance, a later batch).
    public mutating func merge(_ other: VisitorRecord) {
        views = UInt32(min(UInt64(views) + UInt64(other.views), UInt64(UInt32.max)))
        selections = UInt16(min(Int(selections) + Int(other.selections), Int(UInt16.max)))
        flags |= other.flags
        plays = UInt32(min(UInt64(plays) + UInt64(other.plays), UInt64(UInt32.max)))
    }

    /// What this visitor adds to their group's sums. A counter near its limit squared passes
    /// `Int.max`: it wraps, as the sums add and take away, rather than stopping the writer.
    public var sums: VisitorSums {
        var sums = VisitorSums()
        let v = Int(views), s = Int(selections)
        sums.visitors = 1
        sums.converting = s > 0 ? 1 : 0
        sums.convertingLong = flags & Self.long != 0 ? 1 : 0
        sums.convertingShort = flags & Self.short != 0 ? 1 : 0
        sums.convertingStream = flags & Self.stream != 0 ? 1 : 0
        sums.selections = s
        sums.selectionSquares = s * s
        sums.views = v
        sums.viewSquares = v &* v
        sums.viewSelectionProducts = v &* s
        sums.erroring = flags & Self.error != 0 ? 1 : 0
        let p = Int(plays)
        sums.playing = p > 0 ? 1 : 0
        sums.plays = p
        sums.playSquares = p &* p
        return sums
    }
}
