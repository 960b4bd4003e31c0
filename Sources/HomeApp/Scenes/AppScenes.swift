import ScreenKit

/// Open an item's page: `/long/ID`, `/short/ID` or `/stream/ID`.
struct ItemRequest: SceneRequest {
    enum Scene: String, CaseIterable { case long, short, stream }
    let scene: Scene
    let id: String
}

/// Open the settings page.
struct SettingsRequest: SceneRequest {}

extension SceneRegistry {
    /// Every scene the app presents; a new one is one request type and one line here.
    /// Built once: every home request's container pivots through it.
    static let app: SceneRegistry = {
        var registry = SceneRegistry()
        registry.register(ItemRequest.self) { .push(url: "/\($0.scene.rawValue)/\($0.id)") }
        registry.register(SettingsRequest.self) { _ in .push(url: "/settings") }
        return registry
    }()
}

extension ItemRequest.Scene {
    /// The scene that shows items of `kind`.
    init(_ kind: ContentItem.Kind) {
        switch kind {
        case .long: self = .long
        case .short: self = .short
        case .live: self = .stream
        }
    }
}
