// Render benchmark (not a test): a 100-row page of escaped titles and descriptions, and the
// home's grid page with 120 items, each rendered many times in release; prints the median µs
// per render and the page size.
// Build: swift build -c release --product render-bench --scratch-path .build-release
import HomeLayouts
import ScreenKit

struct Row {
    let id: String
    let title: String
    let description: String
}

final class BenchListView: RootView {
    init() {}
    static var tag: StaticString { "section" }

    func renderAttributes(_ model: [Row], into writer: inout HTMLWriter, context: RenderContext) {
        writer.write(" class=\"list\"")
    }

    func renderContent(_ model: [Row], into writer: inout HTMLWriter, scope: RenderScope) {
        writer.write("<ul class=\"list__items\">")
        for row in model {
            writer.write("<li class=\"list__item\"><a class=\"list__link\"")
            writer.urlAttribute("href", "/long/" + row.id)
            writer.attribute("data-item", row.id)
            writer.write("><h2 class=\"list__title\">")
            writer.text(row.title)
            writer.write("</h2><p class=\"list__text\">")
            writer.text(row.description)
            writer.write("</p></a></li>")
        }
        writer.write("</ul>")
    }
}

final class BenchList: GenericViewController<[Row], BenchListView> {
    override var pageTitle: String? { "Home" }
}

let rows = (1...100).map { index in
    Row(id: "m-\(index)",
        title: "Episode \(index): Tom & Jerry's <Pizza>",
        description: "Crust, cheese & tomato — \"fresh\" and 'hot' daily.")
}
let context = RenderContext(csrfToken: "b3JkZXItcGl6emEtcGxlYXNlLXRoYW5rcw")

let listPage: () -> Page = {
    let container = ViewController()
    container.embed(BenchList(viewModel: rows))
    return Page(root: container)
}
let gridPage: () -> Page = {
    let grid = HomeFactory.standard.make("grid")!
    grid.baseViewModel.items = BenchItem.catalogue(count: 120)
    let container = ViewController()
    container.embed(grid)
    return Page(root: container)
}

measure("100 rows", listPage)
measure("grid, 120 items", gridPage)
