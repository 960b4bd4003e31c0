import Basics
import MicroHTTP
import ScreenKit

/// Every error page: the status, what was wrong, the request id, and where to go instead.
final class ErrorScreen: GenericViewController<ErrorScreenModel, ErrorScreenView> {
    override var pageTitle: String? { viewModel.heading }
}

struct ErrorScreenModel {
    let status: Status
    let message: String
    let requestID: String
    var links: [(title: String, url: String)] = []

    var heading: String {
        switch status.rawValue {
        case 404: "Page not found"
        case 403: "Form expired"
        case 400: "That did not work"
        case 500...: "Something went wrong"
        default: status.reasonPhrase
        }
    }
}

final class ErrorScreenView: RootView {
    init() {}

    func renderAttributes(_ model: ErrorScreenModel, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write(" class=\"error-screen\"")
        writer.attribute("data-status", model.status.rawValue)
    }

    func renderContent(_ model: ErrorScreenModel, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer, context: scope.context, skipLink: true)
        writer.write("<div class=\"error-screen__body\"")
        writer.write(AppHeader.contentTarget)
        writer.write("><p class=\"error-screen__status\">")
        writer.write(model.status.rawValue)
        writer.write(" · ")
        writer.text(model.status.reasonPhrase)
        writer.write("</p><h1>")
        writer.text(model.heading)
        writer.write("</h1><p class=\"error-screen__message\">")
        writer.text(Self.printable(model.message))
        writer.write("</p>")
        if !model.links.isEmpty {
            writer.write("<ul class=\"error-screen__links\">")
            for link in model.links {
                writer.write("<li><a class=\"button button--secondary\"")
                writer.urlAttribute("href", link.url)
                writer.write(">")
                writer.text(link.title)
                writer.write("</a></li>")
            }
            writer.write("</ul>")
        }
        writer.write("<p><a class=\"button button--primary\" href=\"/\">Back to the home screen</a></p>")
        writer.write("<p class=\"error-screen__request\">Request id <code>")
        writer.text(model.requestID)
        writer.write("</code></p></div>")
    }

    /// A message may quote what was asked for: control characters (which HTML may not hold), line
    /// separators and direction controls (which would reorder the rest of the line) show as U+FFFD.
    static func printable(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: isUnprintable) else { return message }
        return String(String.UnicodeScalarView(message.unicodeScalars.map { isUnprintable($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isInvisibleControl && scalar != "\t" && scalar != "\n"
    }
}
