import Testing
@testable import HomeLayouts

/// Order and index paths.
@Suite struct OrderAndIndexPathTests {
    @Test func theListShowsFilmsThenClipsThenLiveStreamsEachInCatalogueOrder() {
        let (list, _) = loaded(ListHome.self)
        #expect(identifiers(list) == [["m1", "m2", "m3"], ["s1", "s2"], ["l1", "l2"]])
        #expect(list.baseViewModel.sections.map(\.kind) == [.long, .short, .live])
    }

    @Test func theGridPutsLiveStreamsFirst() {
        let (grid, _) = loaded(GridHome.self)
        #expect(identifiers(grid) == [["l1", "l2"], ["m1", "m2", "m3"], ["s1", "s2"]])
        #expect(grid.baseViewModel.sections.map(\.kind) == [.live, .long, .short])
    }

    @Test func kindsWithoutItemsGetNoSection() {
        let (grid, _) = loaded(GridHome.self, [StubItem("s9", .short)])
        #expect(identifiers(grid) == [["s9"]])
    }

    @Test func theSameItemSitsAtDifferentIndexPathsInTheTwoLayoutsAndMapsBack() throws {
        let (list, _) = loaded(ListHome.self)
        let (grid, _) = loaded(GridHome.self)
        #expect(list.baseViewModel.indexPath(of: "l2") == HomeIndexPath(section: 2, item: 1))
        #expect(grid.baseViewModel.indexPath(of: "l2") == HomeIndexPath(section: 0, item: 1))
        for item in Catalogue.items {
            let inList = try #require(list.baseViewModel.indexPath(of: item.identifier))
            let inGrid = try #require(grid.baseViewModel.indexPath(of: item.identifier))
            #expect(list.baseViewModel.item(at: inList)?.identifier == item.identifier)
            #expect(grid.baseViewModel.item(at: inGrid)?.identifier == item.identifier)
        }
        #expect(list.baseViewModel.item(at: HomeIndexPath(section: 3, item: 0)) == nil)
        #expect(list.baseViewModel.item(at: HomeIndexPath(section: 1, item: 2)) == nil)
        #expect(list.baseViewModel.indexPath(of: "nope") == nil)
    }

    @Test func anIndexPathDecodesFromSectionItemAndPrintsBackTheSame() throws {
        let path = try #require(HomeIndexPath("2.14"))
        #expect(path == HomeIndexPath(section: 2, item: 14))
        #expect(path.description == "2.14")
        #expect(HomeIndexPath("0.0") == HomeIndexPath(section: 0, item: 0))
    }

    @Test(arguments: [
        "", "2", "2.", ".1", "a.b", "1.2.3", "1,2", "-1.2", "1.-2", "+1.2", "-0.0", " 1.2", "1.2 ",
        "1e3.2", "0x1.2", "1234567.0", "\u{0661}.\u{0662}", "１.２",
    ])
    func malformedIndexPathsAreRefused(_ text: String) {
        #expect(HomeIndexPath(text) == nil)
    }

    @Test func theGridsMoreTargetStepsAlongARowAndWrapsToItsStart() {
        let (grid, _) = loaded(GridHome.self, (1...9).map { StubItem("l\($0)", .live) } + [StubItem("m1", .long)])
        let model = grid.viewModel
        #expect(model.nextScrollTarget(forSection: 0) == HomeIndexPath(section: 0, item: 4))
        model.scrollPosition = HomeIndexPath(section: 0, item: 4)
        #expect(model.nextScrollTarget(forSection: 0) == HomeIndexPath(section: 0, item: 8))
        model.scrollPosition = HomeIndexPath(section: 0, item: 8)
        #expect(model.nextScrollTarget(forSection: 0) == HomeIndexPath(section: 0, item: 0))
        // Another row's position does not move this one; an off-row position restarts it.
        model.scrollPosition = HomeIndexPath(section: 1, item: 0)
        #expect(model.nextScrollTarget(forSection: 0) == HomeIndexPath(section: 0, item: 4))
        model.scrollPosition = HomeIndexPath(section: 0, item: 400)
        #expect(model.nextScrollTarget(forSection: 0) == HomeIndexPath(section: 0, item: 0))
    }
}
