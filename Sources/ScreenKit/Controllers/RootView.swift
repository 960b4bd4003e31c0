/// A controller's typed root view: it owns all markup and CSS class names of its screen.
///
/// ScreenKit writes the root element's opening (tag, `data-controller`, transition and inset
/// markers), the view adds its attributes and content, and ScreenKit closes the element.
public protocol RootView: AnyObject {
    /// What the view draws from; the controller's view model.
    associatedtype Model

    /// Creates the view; called by the controller's `loadView()`.
    init()

    /// The root element's tag name (default `div`).
    static var tag: StaticString { get }

    /// The root element's `class`, written by the default `renderAttributes` (default none).
    static var cssClass: StaticString? { get }

    /// Writes the root element's own attributes, each as ` name="value"` (default: the `cssClass`).
    func renderAttributes(_ model: Model, into writer: inout HTMLWriter, context: RenderContext)

    /// Writes what goes inside the root element, rendering embedded children via `scope`.
    func renderContent(_ model: Model, into writer: inout HTMLWriter, scope: RenderScope)
}

extension RootView {
    /// The root element is a `div` unless the view says otherwise.
    public static var tag: StaticString { "div" }

    /// No class unless the view names one.
    public static var cssClass: StaticString? { nil }

    /// Writes the `cssClass`, if any; views with more attributes write their own.
    public func renderAttributes(_ model: Model, into writer: inout HTMLWriter, context: RenderContext) {
        guard let cssClass = Self.cssClass else { return }
        writer.write(" class=\"")
        writer.write(cssClass)
        writer.write("\"")
    }
}
