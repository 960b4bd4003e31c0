import ScreenKit

/// Every `/admin` page: the app's header, the admin navigation, a title and a body the route draws.
final class AdminScreen: GenericViewController<AdminPage, AdminScreenView> {
    override var pageTitle: String? { viewModel.title }
}

struct AdminPage {
    let title: String
    /// Which navigation link is the current page.
    let section: AdminSection
    let body: (inout HTMLWriter, RenderContext) -> Void
    /// Opened by a sign-in, which the page offers to end.
    var signedIn = false
}

enum AdminSection: CaseIterable {
    case toggles, history, content, contentHistory, qa

    var path: String {
        switch self {
        case .toggles: "/admin"
        case .history: "/admin/history"
        case .content: "/admin/content"
        case .contentHistory: "/admin/content/history"
        case .qa: AdminQALinks.path
        }
    }

    var label: String {
        switch self {
        case .toggles: "Toggles"
        case .history: "Toggles history"
        case .content: "Catalogue"
        case .contentHistory: "Catalogue history"
        case .qa: "QA links"
        }
    }
}

final class AdminScreenView: RootView {
    init() {}

    static var cssClass: StaticString? { "admin" }

    func renderContent(_ model: AdminPage, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer, context: scope.context)
        writer.write("<div class=\"admin__body\"><nav class=\"admin__nav\" aria-label=\"Admin\">")
        for section in AdminSection.allCases {
            writer.write("<a")
            writer.urlAttribute("href", section.path)
            if section == model.section { writer.write(" aria-current=\"page\"") }
            writer.write(">")
            writer.text(section.label)
            writer.write("</a>")
        }
        writer.write("<a href=\"/reports/experiments\">Experiment results</a>")
        if model.signedIn { ReportsSignIn.renderSignOut(into: &writer, context: scope.context, cssClass: "admin__sign-out") }
        writer.write("</nav><h1>")
        writer.text(model.title)
        writer.write("</h1>")
        model.body(&writer, scope.context)
        writer.write("</div>")
    }
}
