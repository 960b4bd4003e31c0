import Testing
import TestSupport
@testable import HomeLayouts

/// Children render.
@Suite struct RenderingTests {
    /// The child's root element, parsed.
    func root(_ child: any HomeLayout) throws -> HTMLElement {
        try #require(HTMLDocument.parse(render(child)).children.first)
    }

    @Test func theListItsControllerItsFormOneRowButtonPerItemNamingItsIndexPath() throws {
        let (list, _) = loaded(ListHome.self)
        let html = try root(list)
        #expect(html["data-controller"] == "ListHome")
        let form = try #require(html.first { $0.tag == "form" })
        #expect(form["action"] == "/home/actions" && form["method"] == "post")
        let hidden = form.all("input").map { "\($0["name"] ?? "")=\($0["value"] ?? "")" }
        #expect(hidden == ["_csrf=token-123", "layout=list"])
        let rows = html.buttons(named: "open")
        #expect(rows.count == Catalogue.items.count)
        for row in rows {
            let path = try #require(HomeIndexPath(row["value"] ?? ""))
            let item = try #require(list.baseViewModel.item(at: path))
            #expect(row.text.contains(item.title))
        }
        #expect(rows.map { $0["value"] } == ["0.0", "0.1", "0.2", "1.0", "1.1", "2.0", "2.1"])
        #expect(html.buttons(named: "replace", value: "grid").first?.text == "Show as grid")
        #expect(html.buttons(named: "settings").count == 1)
        #expect(html.buttons(named: "watch").isEmpty)
    }

    @Test func theGridOneTilePerItemLiveFirstWatchLiveAndTheLiveBadgeOnlyOnStreamsOnTheAir() throws {
        let (grid, _) = loaded(GridHome.self)
        let html = try root(grid)
        #expect(html["data-controller"] == "GridHome")
        #expect(html.all(class: "grid-tile").count == Catalogue.items.count)
        #expect(html.buttons(named: "open").map { $0["value"] } == ["0.0", "0.1", "1.0", "1.1", "1.2", "2.0", "2.1"])
        // "Watch live" is part of the tile's one button, not a second one.
        #expect(html.buttons(named: "watch").isEmpty)
        let watch = html.all(class: "grid-tile__watch")
        #expect(watch.map { $0.closest("button")?["value"] } == ["0.0", "0.1"])
        #expect(watch.allSatisfy { $0.text == "Watch live" && $0.closest("li")?.text.contains("Title l") == true })
        #expect(html.all(class: "poster__badge").map { $0.closest("button")?["value"] } == ["0.0", "0.1"])
        #expect(html.buttons(named: "replace", value: "list").first?.text == "Show as list")
        #expect(html.first { $0.tag == "input" && $0["name"] == "layout" }?["value"] == "grid")
    }

    @Test func aRowOfMoreTilesThanFitGetsAMoreButtonThatMovesOnAndWraps() throws {
        let (grid, _) = loaded(GridHome.self, Catalogue.manyLive + [StubItem("m1", .long)])
        #expect(try root(grid).buttons(named: "more").map { $0["value"] } == ["0.4"])
        grid.viewModel.scrollPosition = HomeIndexPath(section: 0, item: 4)
        #expect(try root(grid).buttons(named: "more").map { $0["value"] } == ["0.0"])
        #expect(try root(grid).first { $0["id"] == "grid-tile-0-4" } != nil)
    }

    @Test(arguments: [ListHome.layoutName, GridHome.layoutName])
    func titlesSummariesAndDetailsAreEscaped(_ layout: String) throws {
        let child = try #require(HomeFactory.standard.make(layout))
        child.baseViewModel.items = [StubItem("m1", .long, title: "<b>\"Tom & Jerry's\"</b>"), StubItem("l1", .live, title: "<script>x</script>")]
        let html = render(child)
        #expect(!html.contains("<b>") && !html.contains("<script>"))
        #expect(html.contains("&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;"))
        #expect(try HTMLDocument.parse(html).first { $0.text == "<b>\"Tom & Jerry's\"</b>" } != nil)
    }

    @Test(arguments: [ListHome.layoutName, GridHome.layoutName])
    func aPreviewDrawsTheItemsButNoFormAndNoButtons(_ layout: String) throws {
        let child = try #require(HomeFactory.standard.make(layout))
        child.isPreview = true
        child.baseViewModel.items = Catalogue.manyLive + Catalogue.items
        let html = try root(child)
        #expect(html["data-controller"] == (layout == "list" ? "ListHome" : "GridHome"))
        #expect(html.all("form").isEmpty && html.all("button").isEmpty && html.all("input").isEmpty)
        for item in Catalogue.manyLive + Catalogue.items {
            #expect(html.text.contains(item.title))
        }
    }

    @Test func noItemsTheEmptyMessage() throws {
        let (list, _) = loaded(ListHome.self, [])
        list.baseViewModel.emptyMessage = "Nothing matches \"zz\"."
        let html = try root(list)
        #expect(html.first { $0.hasClass("home-empty") }?.text == "Nothing matches \"zz\".")
        #expect(html.buttons(named: "open").isEmpty)
    }

    @Test func showingAChildReportsOneLaunchAPreviewReportsNone() {
        let (list, log) = loaded(ListHome.self)
        _ = render(list)
        _ = render(list)
        #expect(log.calls == ["launch"])
        let (preview, previewLog) = loaded(GridHome.self, preview: true)
        _ = render(preview)
        #expect(previewLog.calls.isEmpty)
    }
}
