/// The grid layout: a sideways-scrolling row of tiles per kind, live streams first. Tiles of
/// streams on the air say "Watch live"; each row has a "more" button that scrolls it without
/// JavaScript. A `watch` post (the separate button pages drawn before had) still opens a stream.
final class GridHome: BaseHomeLayout<GridHomeViewModel, GridHomeView>, HomeLayout {
    static let layoutName = "grid"
    static let displayName = "Grid"
    static let scrollsRowsSideways = true

    required init() {
        super.init()
        viewModel.alternative = (ListHome.layoutName, "Show as list")
    }

    func handle(_ form: [String: String]) throws(HomeFormError) {
        if try handleCommonActions(form) { return }
        if let position = form[HomeFormField.watch] {
            let path = try indexPath(position)
            guard let item = viewModel.item(at: path) else { throw .noSuchItem(path) }
            guard item.category == .live else { throw .notLive(path) }
            streamSelected?(path)
        } else if let position = form[HomeFormField.more] {
            let path = try indexPath(position)
            guard viewModel.item(at: path) != nil else { throw .noSuchItem(path) }
            didHorizontalSwipe?(path)
        } else {
            throw .noAction
        }
    }
}
