import Testing
@testable import HomeLayouts

/// HomeFactory.
@Suite struct HomeFactoryTests {
    @Test func theStandardFactoryHasListAndGridInThatOrder() {
        #expect(HomeFactory.standard.names == ["list", "grid"])
        #expect(HomeFactory.standard.layouts.map { $0.displayName } == ["List", "Grid"])
    }

    @Test func makeBuildsAFreshChildOfTheNamedLayoutThatCarriesTheFactory() throws {
        let list = try #require(HomeFactory.standard.make("list"))
        let grid = try #require(HomeFactory.standard.make("grid"))
        #expect(list is ListHome && list.layoutName == "list")
        #expect(grid is GridHome && grid.layoutName == "grid")
        #expect(grid.baseViewModel.layout == "grid")
        #expect(grid.factory.names == ["list", "grid"])
        #expect(HomeFactory.standard.make("list") !== list)
        #expect(HomeFactory.standard.make("carousel") == nil)
        #expect(HomeFactory.standard.make("") == nil)
        #expect(HomeFactory.standard.make("List") == nil)
    }

    @Test func hasKnowsExactlyTheRegisteredNames() {
        #expect(HomeFactory.standard.has("list") && HomeFactory.standard.has("grid"))
        #expect(!HomeFactory.standard.has("carousel") && !HomeFactory.standard.has("Grid") && !HomeFactory.standard.has(""))
    }

    @Test func registerAddsALayoutAtTheEnd() throws {
        var factory = HomeFactory.standard
        factory.register(TallList.self)
        #expect(factory.names == ["list", "grid", "tall"])
        let tall = try #require(factory.make("tall"))
        #expect(tall is TallList && tall.factory.names == factory.names)
        #expect(HomeFactory.standard.names == ["list", "grid"])
    }

    @Test func registerReplacesALayoutOfTheSameName() throws {
        var factory = HomeFactory.standard
        factory.register(OtherGrid.self)
        #expect(factory.names == ["list", "grid"])
        #expect(factory.layouts.count == 2)
        #expect(try #require(factory.make("grid")) is OtherGrid)
        #expect(factory.layouts.map { $0.displayName } == ["List", "Other grid"])
    }
}

/// Another layout that claims the name `grid`.
final class OtherGrid: BaseHomeLayout<GridHomeViewModel, GridHomeView>, HomeLayout {
    static let layoutName = "grid"
    static let displayName = "Other grid"

    func handle(_ form: [String: String]) throws(HomeFormError) {
        guard try handleCommonActions(form) else { throw .noAction }
    }
}
