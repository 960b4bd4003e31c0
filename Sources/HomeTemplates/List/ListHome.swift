/// The list layout: one section per kind, one row per item; a row opens its item.
public final class ListHome: HomeTemplate<ListHomeViewModel, ListHomeView>, HomeChild {
    public static let layoutName = "list"
    public static let displayName = "List"

    public required init() {
        super.init()
        viewModel.alternative = (GridHome.layoutName, "Show as grid")
    }

    public func handle(_ form: [String: String]) throws(HomeFormError) {
        guard try handleSharedActions(form) else { throw .noAction }
    }
}
