/// The list layout: one section per kind, one row per item; a row opens its item.
final class ListHome: BaseHomeLayout<ListHomeViewModel, ListHomeView>, HomeLayout {
    static let layoutName = "list"
    static let displayName = "List"

    required init() {
        super.init()
        viewModel.alternative = (GridHome.layoutName, "Show as grid")
    }

    func handle(_ form: [String: String]) throws(HomeFormError) {
        guard try handleCommonActions(form) else { throw .noAction }
    }
}
