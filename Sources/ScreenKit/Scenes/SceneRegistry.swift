/// A `SceneBuilder` that maps request types to build closures; a new scene is one registration.
/// `TextInputRequest` is registered from the start.
public struct SceneRegistry: SceneBuilder, Sendable {
    private var builders: [ObjectIdentifier: @Sendable (any SceneRequest) -> Scene?] = [:]

    /// Creates a registry that already knows `TextInputRequest`.
    public init() {
        register(TextInputRequest.self) { request in
            .modal(TextInputController(request: request), dismissURL: request.dismissURL, dismissal: .link)
        }
    }

    /// Registers (or replaces) how scenes for requests of type `type` are built.
    public mutating func register<Request: SceneRequest>(_ type: Request.Type,
                                                         build: @escaping @Sendable (Request) -> Scene) {
        builders[ObjectIdentifier(type)] = { request in
            (request as? Request).map(build)
        }
    }

    /// The scene for `request`, if its type is registered.
    public func scene(for request: any SceneRequest) -> Scene? {
        builders[ObjectIdentifier(type(of: request))]?(request)
    }
}
