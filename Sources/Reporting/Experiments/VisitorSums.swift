/// One experiment group's visitors, exactly, as the sums the statistics need: every figure of
/// `/reports/experiments` comes from these fourteen numbers. Each visitor counts from their first event
/// carrying the experiment (their exposure), in the group of that first event.
public struct VisitorSums: Sendable, Equatable {
    /// Exposed visitors.
    public var visitors = 0
    /// Visitors with at least one selection, of any kind and per kind.
    public var converting = 0
    public var convertingLong = 0
    public var convertingShort = 0
    public var convertingStream = 0
    /// Σ selections per visitor and Σ of their squares.
    public var selections = 0
    public var selectionSquares = 0
    /// Σ home views per visitor and Σ of their squares.
    public var views = 0
    public var viewSquares = 0
    /// Σ views × selections per visitor: the covariance the ratio metric's delta method needs.
    public var viewSelectionProducts = 0
    /// Visitors who were shown an error page at least once (`error_shown`): a guardrail.
    public var erroring = 0
    /// Visitors who started at least one play (`play_started`), Σ plays per visitor and Σ of their squares.
    public var playing = 0
    public var plays = 0
    public var playSquares = 0

    public init() {}

    /// The fields in a fixed order, for storing.
    public static let fieldCount = 14

    /// The fields' names in that order, as `/reports.json` and the database name them.
    public static let fieldNames = ["visitors", "converting", "convertingLong", "convertingShort", "convertingStream",
                                    "selections", "selectionSquares", "views", "viewSquares", "viewSelectionProducts",
                                    "erroring", "playing", "plays", "playSquares"]

    public subscript(field index: Int) -> Int {
        get { withUnsafeBytes(of: self) { $0.load(fromByteOffset: index * 8, as: Int.self) } }
        set { withUnsafeMutableBytes(of: &self) { $0.storeBytes(of: newValue, toByteOffset: index * 8, as: Int.self) } }
    }

    /// Adds another set of sums (two segments of visitors never overlap).
    public mutating func add(_ other: VisitorSums) { combine(other, &+) }

    /// Takes another set of sums away: a visitor's old contribution before their new one is added.
    public mutating func subtract(_ other: VisitorSums) { combine(other, &-) }

    /// Field by field: through `subscript(field:)` each went to memory and back, and the writer
    /// adds for every event.
    @inline(__always)
    private mutating func combine(_ other: VisitorSums, _ operation: (Int, Int) -> Int) {
        visitors = operation(visitors, other.visitors)
        converting = operation(converting, other.converting)
        convertingLong = operation(convertingLong, other.convertingLong)
        convertingShort = operation(convertingShort, other.convertingShort)
        convertingStream = operation(convertingStream, other.convertingStream)
        selections = operation(selections, other.selections)
        selectionSquares = operation(selectionSquares, other.selectionSquares)
        views = operation(views, other.views)
        viewSquares = operation(viewSquares, other.viewSquares)
        viewSelectionProducts = operation(viewSelectionProducts, other.viewSelectionProducts)
        erroring = operation(erroring, other.erroring)
        playing = operation(playing, other.playing)
        plays = operation(plays, other.plays)
        playSquares = operation(playSquares, other.playSquares)
    }

    /// Visitors exposed who made no selection: the other guardrail.
    public var withoutSelection: Int { visitors - converting }
}
