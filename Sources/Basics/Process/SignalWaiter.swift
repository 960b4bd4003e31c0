import Glibc

/// Waits for termination and reload signals synchronously with sigwait(2).
///
/// The signals must be blocked before libmicrohttpd starts its threads: threads inherit the
/// mask, so no thread of the daemon is picked to run a handler and sigwait sees every one.
public struct SignalWaiter: Sendable {
    private let signals: [Int32]

    /// Blocks `signals` in the calling thread; call it before starting any other thread.
    public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        self.signals = signals
        var set = Self.set(of: signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Returns the next of the signals to arrive.
    public func next() -> Int32 {
        var set = Self.set(of: signals)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    private static func set(of signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
