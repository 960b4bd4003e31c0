import Testing
@testable import HomeLayouts

/// Each child turns its own posts into calls of the injected closures, with index paths in its own order.
@Suite struct ActionDecodingTests {
    @Test(arguments: [
        ("0.0", "long 0.0"), ("0.2", "long 0.2"), ("1.1", "short 1.1"), ("2.0", "stream 2.0"),
    ])
    func listOpenCallsTheClosureOfTheItemsKindWithTheListsIndexPath(_ position: String, _ call: String) throws {
        let (list, log) = loaded(ListHome.self)
        try list.handle(["layout": "list", "open": position])
        #expect(log.calls == [call])
    }

    @Test(arguments: [
        ("0.0", "stream 0.0"), ("0.1", "stream 0.1"), ("1.2", "long 1.2"), ("2.1", "short 2.1"),
    ])
    func gridOpenCallsTheClosureOfTheItemsKindWithTheGridsIndexPath(_ position: String, _ call: String) throws {
        let (grid, log) = loaded(GridHome.self)
        try grid.handle(["layout": "grid", "open": position])
        #expect(log.calls == [call])
    }

    @Test func gridWatchStartsALiveStreamOnAnythingElseItIsRefused() throws {
        let (grid, log) = loaded(GridHome.self)
        try grid.handle(["watch": "0.1"])
        #expect(log.calls == ["stream 0.1"])
        #expect(throws: HomeFormError.notLive(HomeIndexPath(section: 1, item: 0))) { try grid.handle(["watch": "1.0"]) }
        #expect(throws: HomeFormError.noSuchItem(HomeIndexPath(section: 0, item: 2))) { try grid.handle(["watch": "0.2"]) }
        #expect(log.calls == ["stream 0.1"])
    }

    @Test func gridMoreReportsAHorizontalSwipeToThePostedPosition() throws {
        let (grid, log) = loaded(GridHome.self, Catalogue.manyLive)
        try grid.handle(["more": "0.4"])
        #expect(log.calls == ["swipe 0.4"])
        #expect(throws: HomeFormError.noSuchItem(HomeIndexPath(section: 0, item: 7))) { try grid.handle(["more": "0.7"]) }
        #expect(throws: HomeFormError.malformedIndexPath("row")) { try grid.handle(["more": "row"]) }
    }

    @Test(arguments: ["watch", "more"])
    func theListOffersNeitherWatchNorMore(_ field: String) {
        let (list, log) = loaded(ListHome.self)
        #expect(throws: HomeFormError.noAction) { try list.handle([field: "2.0"]) }
        #expect(log.calls.isEmpty)
    }

    @Test func settingsCallsSettingsSelectedInBothLayouts() throws {
        let (list, listLog) = loaded(ListHome.self)
        let (grid, gridLog) = loaded(GridHome.self)
        try list.handle(["settings": "open"])
        try grid.handle(["settings": "open"])
        #expect(listLog.calls == ["settings"] && gridLog.calls == ["settings"])
    }

    @Test func replaceHandsTheContainerANewChildOfTheNamedLayoutFromTheFactory() throws {
        let (list, log) = loaded(ListHome.self)
        try list.handle(["replace": "grid"])
        let (grid, gridLog) = loaded(GridHome.self)
        try grid.handle(["replace": "list"])
        #expect(log.calls == ["replace grid GridHome"])
        #expect(gridLog.calls == ["replace list ListHome"])
    }

    @Test func replaceUsesTheFactoryTheChildWasGivenSoNewLayoutsWork() throws {
        var factory = HomeFactory.standard
        factory.register(TallList.self)
        let list = try #require(factory.make("list"))
        let log = CallLog()
        log.inject(list)
        var made: (any HomeLayout)?
        list.replaceWith = { made = $0 }
        try list.handle(["replace": "tall"])
        #expect(made is TallList)
        #expect(made?.factory.names == ["list", "grid", "tall"])
    }

    @Test func anUnknownLayoutIsRefusedAndNothingIsCalled() {
        let (list, log) = loaded(ListHome.self)
        #expect(throws: HomeFormError.unknownLayout("carousel")) { try list.handle(["replace": "carousel"]) }
        #expect(log.calls.isEmpty)
    }

    @Test(arguments: [ListHome.layoutName, GridHome.layoutName])
    func positionsThatDoNotExistMalformedOnesAndEmptyPostsAreRefused(_ layout: String) throws {
        let child = try #require(HomeFactory.standard.make(layout))
        let log = CallLog()
        log.inject(child)
        child.baseViewModel.items = Catalogue.items
        #expect(throws: HomeFormError.noSuchItem(HomeIndexPath(section: 9, item: 99))) { try child.handle(["open": "9.99"]) }
        #expect(throws: HomeFormError.noSuchItem(HomeIndexPath(section: 0, item: 3))) { try child.handle(["open": "0.3"]) }
        #expect(throws: HomeFormError.malformedIndexPath("x")) { try child.handle(["open": "x"]) }
        #expect(throws: HomeFormError.noAction) { try child.handle([:]) }
        #expect(throws: HomeFormError.noAction) { try child.handle(["layout": layout, "_csrf": "t"]) }
        #expect(log.calls.isEmpty)
    }

    @Test func errorsReadAsSentencesForThe400Page() {
        #expect(HomeFormError.noSuchItem(HomeIndexPath(section: 9, item: 99)).description.contains("9.99"))
        #expect(HomeFormError.malformedIndexPath("x").description.contains("\"x\""))
        #expect(HomeFormError.unknownLayout("carousel").description.contains("carousel"))
    }
}

/// A layout only these tests know.
final class TallList: BaseHomeLayout<ListHomeViewModel, ListHomeView>, HomeLayout {
    static let layoutName = "tall"
    static let displayName = "Tall"

    func handle(_ form: [String: String]) throws(HomeFormError) {
        guard try handleCommonActions(form) else { throw .noAction }
    }
}
