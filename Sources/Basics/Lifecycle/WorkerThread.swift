#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization

/// A named thread running one closure: the one way the server starts a thread of its own.
/// Named so that `top -H` and a debugger say what each thread is.
public final class WorkerThread: Sendable {
    private let handle: Mutex<pthread_t?>

    private final class Start {
        let name: String
        let niceness: Int32
        let body: @Sendable () -> Void
        init(name: String, niceness: Int32, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.niceness = niceness
            self.body = body
        }
    }

    /// Starts `body` on a new thread called `name` (at most 15 bytes are kept). A positive
    /// `niceness` (added to the process's nice value) lets every other thread of the server have the
    /// CPU first: on Linux the nice value is the thread's own, so pages keep their latency while
    /// such a thread works.
    public init(name: String, niceness: Int32 = 0, _ body: @escaping @Sendable () -> Void) throws(WorkerThreadError) {
        var thread = pthread_t()
        let start = Unmanaged.passRetained(Start(name: name, niceness: niceness, body: body))
        let result = pthread_create(&thread, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            WorkerThread.name(start.name)
            #if os(Linux)
                // `who` 0 is the calling thread alone on Linux. Failing leaves the default, which only costs latency.
                if start.niceness != 0 {
                    let which = __priority_which_t(PRIO_PROCESS.rawValue)
                    _ = setpriority(which, 0, getpriority(which, 0) + start.niceness)
                }
            #endif
            start.body()
            return nil
        }, start.toOpaque())
        guard result == 0 else {
            start.release()
            throw WorkerThreadError(name: name, code: result)
        }
        handle = Mutex(thread)
    }

    /// Names the calling thread. Linux's `pthread_setname_np` is outside the C library's Swift
    /// module, so the name is written where it lands, the thread's `comm`; failing leaves the
    /// process's name, which only costs the reader of `top -H`.
    private static func name(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
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
