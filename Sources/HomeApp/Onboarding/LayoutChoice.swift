import HomeLayouts
import ScreenKit

/// The content of the layout card: a live preview of every registered home layout, embedded
/// through the same containment API, and one "Use NAME" button per layout for the template's row.
final class LayoutChoice: GenericViewController<LayoutChoiceModel, LayoutChoiceView>, OnboardingDatasource {
    static let choosePath = "/onboarding/layout"
    /// Items per kind a preview shows.
    static let previewItemsPerKind = 4

    init(factory: HomeFactory, items: [any HomeItem]) {
        let layouts = factory.layouts.map { (name: $0.layoutName, title: $0.displayName) }
        super.init(viewModel: LayoutChoiceModel(layouts: layouts))
        let sample = HomeItemKind.allCases.flatMap { kind in
            items.filter { $0.category == kind }.prefix(Self.previewItemsPerKind)
        }
        for layout in layouts {
            guard let preview = factory.make(layout.name) else { continue }
            preview.isPreview = true
            embed(preview, in: LayoutChoiceView.slot(for: layout.name))
            preview.baseViewModel.items = sample
            preview.refresh()
        }
    }

    override var pageTitle: String? { "Choose your home" }

    var supportingViews: [any Component] {
        viewModel.layouts.map {
            FormButton(title: "Use \($0.title)", action: Self.choosePath, fields: [("layout", $0.name)], style: .primary)
        }
    }
}

struct LayoutChoiceModel {
    let layouts: [(name: String, title: String)]
}

final class LayoutChoiceView: RootView {
    static func slot(for layout: String) -> Slot { Slot("preview-" + layout) }

    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "layout-choice" }

    func renderContent(_ model: LayoutChoiceModel, into writer: inout HTMLWriter, scope: RenderScope) {
        writer.write("<h1 class=\"layout-choice__title\">Choose your home</h1>")
        writer.write("<p class=\"layout-choice__text\">Pick how your home screen lays out films, clips and live streams. ")
        writer.write("You can change it any time in Settings.</p><div class=\"layout-choice__previews\">")
        for layout in model.layouts {
            writer.write("<figure class=\"layout-choice__preview\"><figcaption>")
            writer.text(layout.title)
            // A picture of the layout: previews draw nothing focusable, so aria-hidden is enough (and
            // unlike `inert`, the pip Nu checker knows it).
            writer.write("</figcaption><div class=\"layout-choice__frame\" aria-hidden=\"true\">")
            scope.render(Self.slot(for: layout.name), into: &writer)
            writer.write("</div></figure>")
        }
        writer.write("</div>")
    }
}
