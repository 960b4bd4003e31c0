import ScreenKit

/// What every home layout shares: the injected closures and the decoding of the actions all
/// layouts offer. Subclasses add their own view, order and extra actions.
open class BaseHomeLayout<Model: BaseHomeViewModel, View: RootView>: GenericViewController<Model, View>
where View.Model == Model {
    public var longSelected: ((HomeIndexPath) -> Void)?
    public var shortSelected: ((HomeIndexPath) -> Void)?
    public var streamSelected: ((HomeIndexPath) -> Void)?
    public var settingsSelected: (() -> Void)?
    public var replaceWith: ((any HomeLayout) -> Void)?
    public var didLaunch: (() -> Void)?
    public var didHorizontalSwipe: ((HomeIndexPath) -> Void)?

    public var formAction: String {
        get { viewModel.formAction }
        set { viewModel.formAction = newValue }
    }
    public var isPreview: Bool {
        get { viewModel.isPreview }
        set { viewModel.isPreview = newValue }
    }
    /// Makes the child a `replace` asks for; the container injects its own.
    public var factory = HomeFactory.standard

    public var baseViewModel: BaseHomeViewModel { viewModel }

    public required init() {
        super.init(viewModel: Model())
        viewModel.layout = (self as? any HomeLayout).map { type(of: $0).layoutName } ?? ""
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        if !isPreview { didLaunch?() }
    }

    /// Decodes the actions every layout has: open, settings, replace. True when one was found.
    public func handleCommonActions(_ form: [String: String]) throws(HomeFormError) -> Bool {
        if let position = form[HomeFormField.open] {
            try open(try indexPath(position))
        } else if form[HomeFormField.settings] != nil {
            settingsSelected?()
        } else if let layout = form[HomeFormField.replace] {
            guard let next = factory.make(layout) else { throw .unknownLayout(layout) }
            replaceWith?(next)
        } else {
            return false
        }
        return true
    }

    /// Opening an item means what its kind says.
    func open(_ path: HomeIndexPath) throws(HomeFormError) {
        guard let item = viewModel.item(at: path) else { throw .noSuchItem(path) }
        switch item.category {
        case .long: longSelected?(path)
        case .short: shortSelected?(path)
        case .live: streamSelected?(path)
        }
    }

    func indexPath(_ text: String) throws(HomeFormError) -> HomeIndexPath {
        guard let path = HomeIndexPath(text) else { throw .malformedIndexPath(text) }
        return path
    }
}

/// The names of the fields home layouts's forms post.
public enum HomeFormField {
    public static let layout = "layout"
    public static let open = "open"
    public static let watch = "watch"
    public static let more = "more"
    public static let settings = "settings"
    public static let replace = "replace"
}
