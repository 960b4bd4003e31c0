/// A server-side view controller: renders its root element into an `HTMLWriter`.
///
/// One tree lives for one request on one thread, so it is deliberately not `Sendable`.
/// Containment and lifecycle follow UIKit's names and order.
open class ViewController {
    /// The container this controller is embedded in.
    public internal(set) weak var parent: ViewController?
    /// Embedded children, in render order.
    public internal(set) var children: [ViewController] = []
    /// The parent's slot this controller renders in.
    public internal(set) var slot: Slot = .content
    /// Insets the container asks for around this controller's content (`data-inset-*`).
    public var additionalSafeAreaInsets: EdgeInsets = .zero
    /// Set by `replace(_:with:)` so the browser can animate the new child in.
    public internal(set) var transition: Transition?

    /// Whether `loadView()` has run.
    public private(set) var isViewLoaded = false
    private var isLoadingView = false
    private var cachedName: String?

    /// Creates a controller; its view loads lazily on first access or render.
    public init() {}

    /// Makes the root view. Subclasses that override it need not call super.
    open func loadView() {}

    /// Called once, right after the view has loaded.
    open func viewDidLoad() {}

    /// Called before the controller is added to (`parent`) or removed from (`nil`) a container.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after the controller was added to (`parent`) or removed from (`nil`) a container.
    open func didMove(toParent parent: ViewController?) {}

    /// Called on the container before `child` is added into `slot` (by `addChild`, `embed` or
    /// `replace`), so it can configure the child, e.g. set its `additionalSafeAreaInsets`.
    open func prepare(toEmbed child: ViewController, in slot: Slot) {}

    /// The page title this controller declares, if any.
    open var pageTitle: String? { nil }

    /// The `theme-color` this controller declares (a CSS colour), if any.
    open var themeColor: String? { nil }

    /// Whether this controller's view takes the focus when its page loads (an `autofocus`
    /// field); a modal around it then leaves its sheet unfocused.
    open var placesInitialFocus: Bool { false }

    /// A child presented over this controller's content in the same page (a modal), if any.
    /// As with UIKit's presented controller, it decides the page's appearance, not the content.
    open var presentedChild: ViewController? { nil }

    /// The child whose title and theme colour win over this one's (`childForStatusBarStyle`).
    /// Defaults to the presented child, else the first child; return nil to stop the chain here.
    open var childForPageAppearance: ViewController? { presentedChild ?? children.first }

    /// The title of the innermost controller on the appearance chain that declares one.
    public var resolvedPageTitle: String? {
        childForPageAppearance?.resolvedPageTitle ?? pageTitle
    }

    /// The theme colour of the innermost controller on the appearance chain that declares one.
    public var resolvedThemeColor: String? {
        childForPageAppearance?.resolvedThemeColor ?? themeColor
    }

    /// The `data-controller` value: the Swift type's name (e.g. `ModalContainer`).
    open var controllerName: String {
        if let cachedName { return cachedName }
        let name = String(describing: type(of: self))
        cachedName = name
        return name
    }

    /// Loads the view if it has not been loaded yet, then runs `viewDidLoad()` once.
    public final func loadViewIfNeeded() {
        guard !isViewLoaded, !isLoadingView else { return }
        isLoadingView = true
        loadView()
        viewLoaded()
        isLoadingView = false
        isViewLoaded = true
        viewDidLoad()
    }

    /// Loads this controller's view and, depth-first, those of all its descendants.
    public final func loadViewTreeIfNeeded() {
        loadViewIfNeeded()
        for child in children { child.loadViewTreeIfNeeded() }
    }

    /// Hook between `loadView()` and `viewDidLoad()` for ScreenKit's own subclasses.
    func viewLoaded() {}

    /// Writes this controller's root element, with its children inside it.
    public final func render(into writer: inout HTMLWriter, context: RenderContext) {
        loadViewIfNeeded()
        renderView(into: &writer, scope: RenderScope(controller: self, context: context))
    }

    /// Writes the root element. The default is a `div` holding every child in order;
    /// `GenericViewController` hands this to its typed root view.
    open func renderView(into writer: inout HTMLWriter, scope: RenderScope) {
        scope.openRoot("div", into: &writer)
        writer.write(">")
        for child in children { child.render(into: &writer, context: scope.context) }
        writer.write("</div>")
    }
}
