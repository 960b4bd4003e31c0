import Foundation
import Synchronization

/// A named thread running one closure: the one way the server starts a thread of its own.
/// Named so that `top -H` and a debugger say what each thread is.
public final class WorkerThread: Sendable {
    private let handle: Mutex<pthread_t?>

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
    }

    /// Starts `body` on a new thread called `name` (at most 15 bytes are kept).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(WorkerThreadError) {
        var thread = pthread_t()
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        let result = pthread_create(&thread, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            Thread.current.name = start.name
            start.body()
            return nil
        }, start.toOpaque())
        guard result == 0 else {
            start.release()
            throw WorkerThreadError(name: name, code: result)
        }
        handle = Mutex(thread)
    }

    /// Waits for the closure to return; later calls return at once.
    public func join() {
        guard let thread = handle.withLock({ handle -> pthread_t? in defer { handle = nil }; return handle }) else {
            return
        }
        pthread_join(thread, nil)
    }
}

/// A thread the system would not start.
public struct WorkerThreadError: Error, CustomStringConvertible {
    public let name: String
    public let code: Int32
    public var description: String { "could not start thread \(name): \(String(cString: strerror(code)))" }
}
