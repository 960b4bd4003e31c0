/// A value naming where to go and with what (a `SceneRequest`, as in UIKit apps); it does nothing itself.
public protocol SceneRequest: SendableMetatype {}

/// A built scene and its presentation style.
public enum Scene {
    /// The scene lives at its own URL: the browser goes there (post/redirect/get).
    case push(url: String)
    /// The scene's controller is shown inside a `ModalContainer` that dismisses to `dismissURL`,
    /// by a post or a plain link.
    case modal(ViewController, dismissURL: String, dismissal: ModalDismissal = .post())
}

/// What the HTTP layer does with a presented scene.
public enum Presentation {
    /// Answer with a redirect (303) to this URL.
    case redirect(to: String)
    /// Answer with this controller rendered as a page.
    case page(ViewController)
}

/// Builds the scene a request names.
public protocol SceneBuilder {
    /// The scene for `request`, or nil when this builder does not know the request.
    func scene(for request: any SceneRequest) -> Scene?
}

/// Raised when no builder knows a request.
public struct UnknownSceneRequest: Error, CustomStringConvertible {
    /// Type name of the request nobody could build.
    public let requestType: String

    /// Describes the unknown request.
    public var description: String { "no scene builder for \(requestType)" }
}
