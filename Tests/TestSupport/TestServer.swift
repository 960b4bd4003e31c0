import MicroHTTP

/// A real server on an ephemeral loopback port, for one test.
public final class TestServer: Sendable {
    public let server: Server
    public let port: UInt16

    public init(router: Router, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        server = Server(configuration: configuration, router: router)
        try server.start()
        port = server.port!
    }

    public var client: HTTPClient { HTTPClient(port: port) }

    deinit { server.shutdown() }
}
