/// A controller generic over its view model `M` and its typed root view `V`
/// (the "Generic UIViewControllers" pattern): the view draws, the controller behaves.
open class GenericViewController<M, V: RootView>: ViewController where V.Model == M {
    /// The view model the root view draws from.
    public var viewModel: M
    private var storedView: V?

    /// Creates the controller with its view model; the view loads lazily.
    public init(viewModel: M) {
        self.viewModel = viewModel
        super.init()
    }

    /// The typed root view, loading it (and running `viewDidLoad()`) on first access.
    public var rootView: V {
        get {
            if storedView == nil { loadViewIfNeeded() }
            guard let storedView else { preconditionFailure("\(Self.self).loadView() did not set rootView") }
            return storedView
        }
        set { storedView = newValue }
    }

    /// Makes the root view as `V()`; override to configure it differently and assign `rootView`.
    open override func loadView() {
        storedView = V()
    }

    /// Binds view and behaviour; runs once after `loadView()` and before `viewDidLoad()`.
    open func setupBindings() {}

    /// Asks the controller to bring its view up to date with `viewModel`. Rendering always
    /// draws the current model, so the default does nothing; override for derived state.
    open func refresh() {}

    override func viewLoaded() {
        precondition(storedView != nil, "\(Self.self).loadView() did not set rootView")
        setupBindings()
    }

    /// Writes the root element through the typed root view.
    open override func renderView(into writer: inout HTMLWriter, scope: RenderScope) {
        let view = rootView
        scope.openRoot(V.tag, into: &writer)
        view.renderAttributes(viewModel, into: &writer, context: scope.context)
        writer.write(">")
        view.renderContent(viewModel, into: &writer, scope: scope)
        writer.write("</")
        writer.write(V.tag)
        writer.write(">")
    }
}
