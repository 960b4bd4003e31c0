import ScreenKit

/// A layout the home can show: a view controller that draws, decodes its own form posts into
/// calls of the injected closures, and knows nothing else.
public protocol HomeLayout: ViewController, HomeActions, HomeReporting, HasViewModel, Refreshable {
    /// The layout's name in URLs and cookies (`list`, `grid`).
    static var layoutName: String { get }
    /// The layout's name for people ("List", "Grid").
    static var displayName: String { get }
    /// Whether its rows scroll sideways, and so may report a horizontal swipe.
    static var scrollsRowsSideways: Bool { get }

    init()

    /// Where the child's forms post (set by the container).
    var formAction: String { get set }
    /// A preview draws the same markup without forms or buttons.
    var isPreview: Bool { get set }
    /// Makes the child a replace asks for.
    var factory: HomeFactory { get set }

    /// Decodes a post this child's form made and calls the matching closure.
    func handle(_ form: [String: String]) throws(HomeFormError)
}

extension HomeLayout {
    public var layoutName: String { Self.layoutName }
    public static var scrollsRowsSideways: Bool { false }
    public var scrollsRowsSideways: Bool { Self.scrollsRowsSideways }
}
