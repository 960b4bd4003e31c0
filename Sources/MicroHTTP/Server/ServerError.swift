/// Why the server could not start; each reads as one line for the person starting it.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    case invalidHost(String)
    case bindFailed(host: String, port: UInt16, reason: String)
    case daemonFailed
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host): "cannot listen: \(host) is not an IP address or localhost"
        case .bindFailed(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .daemonFailed: "libmicrohttpd could not start its threads"
        case .alreadyStarted: "the server is already running"
        }
    }
}
