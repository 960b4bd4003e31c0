/// A part of the server that runs in the background: started once, shut down once.
///
/// A `StartOrder` starts its parts in order and shuts them down in reverse, so a part may
/// rely on those started before it for as long as it runs.
public protocol Startable: AnyObject, Sendable {
    /// A short name for the log.
    var name: String { get }
    /// Starts the background work; a throw stops the group from starting.
    func start() throws
    /// Stops the background work and waits for it; called once, after a successful `start`.
    func shutdown()
}
