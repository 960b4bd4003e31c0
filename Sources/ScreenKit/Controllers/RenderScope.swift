/// What a root view gets while rendering: the context and access to its controller's slots.
public struct RenderScope {
    /// The per-request render context.
    public let context: RenderContext
    unowned let controller: ViewController

    init(controller: ViewController, context: RenderContext) {
        self.controller = controller
        self.context = context
    }

    /// Writes `<tag data-controller="Name"` plus transition and inset markers; the caller adds
    /// its own attributes and the closing `>`.
    public func openRoot(_ tag: StaticString, into writer: inout HTMLWriter) {
        writer.write("<")
        writer.write(tag)
        writer.attribute("data-controller", controller.controllerName)
        if let transition = controller.transition {
            writer.attribute("data-transition", transition.rawValue)
        }
        controller.additionalSafeAreaInsets.write(into: &writer)
    }

    /// Whether any child is embedded in `slot`.
    public func hasChildren(in slot: Slot) -> Bool {
        controller.children.contains { $0.slot == slot }
    }

    /// Renders the children embedded in `slot`, in order.
    public func render(_ slot: Slot, into writer: inout HTMLWriter) {
        for child in controller.children where child.slot == slot {
            child.render(into: &writer, context: context)
        }
    }

    /// The resolved page title below this controller (for `aria-label`s of containers).
    public var resolvedPageTitle: String? { controller.resolvedPageTitle }
}
