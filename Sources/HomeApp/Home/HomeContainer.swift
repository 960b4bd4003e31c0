import HomeLayouts
import Reporting
import ScreenKit

/// The one place that knows what the home's actions mean. It embeds a child from the factory,
/// injects actions and reporting, loads the content into it, and turns actions into scene
/// requests for the pivot. It lives for one request.
final class HomeContainer: GenericViewController<HomeContainerModel, HomeContainerView> {
    /// Reports for the visit; the route records what it shows over the home here too.
    let analytics: Analytics
    private let pivot: ScenePivot
    private let items: [any HomeItem]
    /// The search whose results `items` are, or nil for the whole home. The child's form posts
    /// it back, so the post is decoded against the same items the page showed.
    let query: String?
    /// The visitor's own rows (Continue watching, My List), handed to the child with the items.
    private let rows: [HomeRow]
    /// Names the items in their order (a hash of their ids): the child's form posts it back, and
    /// a post from a page drawn from other items is not decoded, since its positions may name
    /// other items now. Unlike a version number it survives restarts and unrelated edits.
    private(set) lazy var itemsFingerprint: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for item in items {
            for byte in item.identifier.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0x0A) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }()
    /// What an action on the home asks for; the route answers with it.
    struct Outcome {
        let presentation: Presentation
        /// The layout a replace switched to, for the cookie.
        var replacedLayout: String?
    }
    /// What the injected actions tell: the response of the form being decoded, else nothing.
    typealias OutcomeHandler = (Outcome) -> Void

    init(items: [any HomeItem], rows: [HomeRow] = [], analytics: Analytics, pivot: ScenePivot, title: String = "Home",
         query: String? = nil) {
        self.items = items
        self.rows = rows
        self.query = query
        self.analytics = analytics
        self.pivot = pivot
        super.init(viewModel: HomeContainerModel(title: title))
    }

    override var pageTitle: String? { viewModel.title }

    var child: (any HomeLayout)? { children.lazy.compactMap { $0 as? any HomeLayout }.first }

    /// The modal over the home (the New Year notice): its innermost child titles the page.
    override var presentedChild: ViewController? { children.last { $0.slot == HomeContainerView.modalSlot } }

    /// Embeds `child`, injects it and loads the content into it.
    func show(_ child: any HomeLayout, answering: @escaping OutcomeHandler = { _ in }) {
        inject(child, answering: answering)
        embed(child)
        load(child)
    }

    /// Shows `child` and has it decode `form`, a post its form made, into one of the injected
    /// actions: what that action asks for, or nil when it leads nowhere.
    func answer(_ form: [String: String], with child: any HomeLayout) throws(HomeFormError) -> Outcome? {
        var answer: Outcome?
        show(child) { answer = $0 }
        try child.handle(form)
        return answer
    }

    /// Presents a modal (the onboarding onion) over the home, in the same page.
    func presentOverHome(_ modal: ViewController) { embed(modal, in: HomeContainerView.modalSlot) }

    /// `replaceWith`: swap children with the lifecycle re-run, inject, reload.
    private func swap(to next: any HomeLayout, answering: @escaping OutcomeHandler) {
        guard let current = child else { return show(next, answering: answering) }
        inject(next, answering: answering)
        replace(current, with: next)
        load(next)
    }

    private func load(_ child: any HomeLayout) {
        child.baseViewModel.items = items
        child.baseViewModel.rows = rows
        child.refresh()
    }

    private func inject(_ child: any HomeLayout, answering: @escaping OutcomeHandler) {
        let layout = child.layoutName
        child.formAction = HomeRoutes.actionsPath + (query.map { "?q=" + URLQuery.component($0) } ?? "")
        child.baseViewModel.hiddenFields = [(HomeRoutes.catalogueField, itemsFingerprint)]
        child.longSelected = { [unowned self, unowned child] path in
            open(path, in: child, event: .longSelected, scene: .long, answering: answering)
        }
        child.shortSelected = { [unowned self, unowned child] path in
            open(path, in: child, event: .shortSelected, scene: .short, answering: answering)
        }
        child.streamSelected = { [unowned self, unowned child] path in
            open(path, in: child, event: .streamSelected, scene: .stream, answering: answering)
        }
        child.settingsSelected = { [unowned self] in
            analytics.record(.settingsSelected, layout: layout)
            if let settings = try? pivot.switchScene(with: SettingsRequest()) { answering(Outcome(presentation: settings)) }
        }
        child.replaceWith = { [unowned self] next in
            analytics.record(.layoutReplaced, layout: next.layoutName, properties: ["from": layout])
            swap(to: next, answering: answering)
            answering(Outcome(presentation: .redirect(to: page(in: next.layoutName)), replacedLayout: next.layoutName))
        }
        child.didLaunch = { [unowned self] in
            if viewModel.reportsLaunch { analytics.record(.launch, layout: layout) }
        }
        // The "more" button's post; the page script's scroll is reported by `SwipeBeacon`.
        child.didHorizontalSwipe = { [unowned self] path in
            analytics.record(.horizontalSwipe, layout: layout,
                             properties: ["row": "\(path.section)", "to": "\(path.item)", "via": "more"])
            answering(Outcome(presentation: .redirect(
                to: page(in: layout) + "&row=\(path.section)&at=\(path.item)#\(layout)-tile-\(path.section)-\(path.item)")))
        }
    }

    /// The home, or these search results, in `layout`: each history entry names what it shows.
    private func page(in layout: String) -> String {
        (query.map { "/search?q=" + URLQuery.component($0) + "&" } ?? "/?") + "layout=\(layout)"
    }

    /// Index path → item through the child's own order → the item's scene.
    private func open(_ path: HomeIndexPath, in child: any HomeLayout, event: ReportEvent.Name, scene: ItemRequest.Scene,
                      answering: OutcomeHandler) {
        guard let item = child.baseViewModel.item(at: path) else { return }
        analytics.record(event, layout: child.layoutName, item: item.identifier)
        if let page = try? pivot.switchScene(with: ItemRequest(scene: scene, id: item.identifier)) {
            answering(Outcome(presentation: page))
        }
    }
}

/// What the container draws besides its children.
struct HomeContainerModel {
    var title: String
    /// Search results render through the child too, but are not a launch of the home.
    var reportsLaunch = true
    /// One line above the home, e.g. that the catalogue changed under a post.
    var notice: String?
}
