import ScreenKit
import TestSupport

/// Renders `controller` on its own and returns the HTML.
func renderHTML(_ controller: ViewController, csrf: String = "token-123") -> String {
    var writer = HTMLWriter()
    controller.render(into: &writer, context: RenderContext(csrfToken: csrf))
    return String(decoding: writer.finish(), as: UTF8.self)
}

/// Renders `controller` and parses the result.
func renderTree(_ controller: ViewController, csrf: String = "token-123") throws -> HTMLElement {
    try HTMLDocument.parse(renderHTML(controller, csrf: csrf))
}

/// The `data-controller` elements in document order.
func controllerElements(in root: HTMLElement) -> [HTMLElement] {
    root.descendants.filter { $0.attributes["data-controller"] != nil }
}
