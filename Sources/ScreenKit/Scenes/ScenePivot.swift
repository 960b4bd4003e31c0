/// Turns a `SceneRequest` into a `Presentation`: asks its builder for the scene, then presents it.
/// Callers say where to go; how the scene is made and shown stays behind the pivot.
public struct ScenePivot {
    /// Where scenes come from.
    public var builder: any SceneBuilder

    /// Creates a pivot over `builder`.
    public init(builder: any SceneBuilder) {
        self.builder = builder
    }

    /// Builds the scene `request` names and presents it.
    public func switchScene(with request: any SceneRequest) throws -> Presentation {
        guard let scene = builder.scene(for: request) else {
            throw UnknownSceneRequest(requestType: String(describing: type(of: request)))
        }
        return present(scene)
    }

    /// Presents a built scene: push → redirect to its URL, modal → wrapped in `ModalContainer`.
    public func present(_ scene: Scene) -> Presentation {
        switch scene {
        case .push(let url):
            return .redirect(to: url)
        case .modal(let controller, let dismissURL, let dismissal):
            return .page(controller.wrapInModalContainer(dismissURL: dismissURL, dismissal: dismissal))
        }
    }
}
