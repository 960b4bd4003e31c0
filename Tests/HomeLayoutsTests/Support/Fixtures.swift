import HomeLayouts
import ScreenKit

/// A home item as the children see it, without the app.
struct StubItem: HomeItem {
    let identifier: String
    let title: String
    var summary = "About it."
    let category: HomeItemKind
    var imageURL: String { "/assets/images/posters/\(identifier).svg" }
    var detail: String { category == .live ? "Live now" : "1 h 30 min" }
    var isLiveNow: Bool { category == .live }

    init(_ identifier: String, _ category: HomeItemKind, title: String? = nil) {
        self.identifier = identifier
        self.category = category
        self.title = title ?? "Title \(identifier)"
    }
}

enum Catalogue {
    /// Kinds interleaved, as a catalogue file may list them: 3 long, 2 short, 2 live.
    static let items: [any HomeItem] = [
        StubItem("l1", .live), StubItem("m1", .long), StubItem("s1", .short), StubItem("m2", .long),
        StubItem("l2", .live), StubItem("s2", .short), StubItem("m3", .long),
    ]

    /// Seven live streams in one row, for the grid's "more" button.
    static let manyLive: [any HomeItem] = (1...7).map { StubItem("l\($0)", .live) }
}

/// What a child called, in order, as text: `long 0.1`, `settings`, `replace grid`, `swipe 1.4`.
/// The closures hold the log strongly: a test may drop its reference before the child calls.
final class CallLog {
    private(set) var calls: [String] = []

    /// Injects recording closures into `child`, as a container would.
    func inject(_ child: any HomeLayout) {
        child.longSelected = { [self] in calls.append("long \($0)") }
        child.shortSelected = { [self] in calls.append("short \($0)") }
        child.streamSelected = { [self] in calls.append("stream \($0)") }
        child.settingsSelected = { [self] in calls.append("settings") }
        child.replaceWith = { [self] in calls.append("replace \($0.layoutName) \(type(of: $0))") }
        child.didLaunch = { [self] in calls.append("launch") }
        child.didHorizontalSwipe = { [self] in calls.append("swipe \($0)") }
    }
}

/// A child loaded with `items` the way the container loads one: set items, refresh.
func loaded<Child: HomeLayout>(_ type: Child.Type, _ items: [any HomeItem] = Catalogue.items,
                               preview: Bool = false) -> (Child, CallLog) {
    let child = Child()
    child.isPreview = preview
    let log = CallLog()
    log.inject(child)
    child.baseViewModel.items = items
    child.refresh()
    return (child, log)
}

/// The identifiers of a child's sections, in its order: `[["l1", "l2"], ["m1", …]]`.
func identifiers(_ child: any HomeLayout) -> [[String]] {
    child.baseViewModel.sections.map { $0.items.map(\.identifier) }
}

/// Renders `controller` on its own.
func render(_ controller: ViewController, csrf: String = "token-123") -> String {
    var writer = HTMLWriter()
    controller.render(into: &writer, context: RenderContext(csrfToken: csrf))
    return String(decoding: writer.finish(), as: UTF8.self)
}
