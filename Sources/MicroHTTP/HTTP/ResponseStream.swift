import Basics
import CMicroHTTPD
import Synchronization

/// A response body written over time, such as server-sent events. Any thread may `write`;
/// libmicrohttpd pulls the bytes on its own thread and the connection sleeps (suspended) while
/// there is nothing to send, so an idle stream costs no thread and no polling.
///
/// Written arrays are queued as they are, not copied: the same bytes written to many streams
/// (an event sent to every watcher) are held once, however far behind each reader is.
public final class ResponseStream: Sendable {
    struct State {
        /// Queued arrays, oldest first; the first is sent from `sentOfFirst`.
        var pending: [[UInt8]] = []
        var sentOfFirst = 0
        var pendingBytes = 0
        var finished = false
        var closed = false
        var suspended = false
        /// The libmicrohttpd connection, as an address: pointers are not Sendable.
        var connection: UInt?
    }

    /// A client that reads slower than this many bytes behind is dropped, to bound memory.
    public let maximumPendingBytes: Int
    let state = Mutex(State())
    /// Rung when libmicrohttpd takes bytes or lets go: a writer waiting for room wakes.
    private let taken = Doorbell()
    private let closeHandlers = Mutex<[@Sendable () -> Void]>([])

    public init(maximumPendingBytes: Int = 1 << 20) { self.maximumPendingBytes = maximumPendingBytes }

    /// Queues bytes for the client; false once the stream is closed (the client went away).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished else { return false }
            guard !bytes.isEmpty else { return true }
            state.pending.append(bytes)
            state.pendingBytes += bytes.count
            if state.pendingBytes > maximumPendingBytes {
                state.finished = true
                state.pending = []
                state.sentOfFirst = 0
                state.pendingBytes = 0
            }
            Self.wake(&state)
            return true
        }
    }

    /// Ends the response once the queued bytes are sent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            Self.wake(&state)
        }
    }

    /// Bytes queued and not yet taken by libmicrohttpd: how far behind the client is.
    public var pendingBytes: Int { state.withLock { $0.pendingBytes } }

    /// Whether the stream ends once its queued bytes are sent (or was cut for falling behind).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Whether the connection sleeps until the next write: what a test waits for before writing.
    var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Whether libmicrohttpd has let go of the stream (sent it all, or the client disconnected).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs `handler` once the stream is closed; at once if it already is.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let closed = state.withLock { $0.closed }
        if closed { handler(); return }
        closeHandlers.withLock { $0.append(handler) }
        if state.withLock({ $0.closed }) { runCloseHandlers() }
    }

    /// libmicrohttpd asks for up to `capacity` bytes; 0 means "nothing yet" and suspends.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = state.withLock { state -> Int in
            if state.pending.isEmpty {
                if state.finished { return -1 }
                if let address = state.connection, !state.suspended {
                    state.suspended = true
                    MHD_suspend_connection(OpaquePointer(bitPattern: address))
                }
                return 0
            }
            var copied = 0
            while copied < buffer.count, let first = state.pending.first {
                let count = min(buffer.count - copied, first.count - state.sentOfFirst)
                first.withUnsafeBytes {
                    (buffer.baseAddress! + copied).copyMemory(from: $0.baseAddress! + state.sentOfFirst, byteCount: count)
                }
                copied += count
                state.sentOfFirst += count
                if state.sentOfFirst == first.count {
                    state.pending.removeFirst()
                    state.sentOfFirst = 0
                }
            }
            state.pendingBytes -= copied
            return copied
        }
        if count > 0 { taken.ring() }
        return count
    }

    /// Waits until fewer than `bytes` are queued, the stream ends, or `seconds` pass: a writer
    /// with much to send keeps at most that much ahead of the client.
    public func waitForRoom(below bytes: Int, seconds: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while pendingBytes >= bytes, !isClosed, !isFinished, ContinuousClock.now < deadline {
            taken.wait(seconds: 0.05)
        }
    }

    func attach(_ connection: OpaquePointer) {
        let address = UInt(bitPattern: connection)
        state.withLock { $0.connection = address }
    }

    /// Called when libmicrohttpd frees the response.
    func close() {
        state.withLock { state in
            state.closed = true
            state.connection = nil
        }
        taken.ring()
        runCloseHandlers()
    }

    private func runCloseHandlers() {
        let handlers = closeHandlers.withLock { handlers in defer { handlers = [] }; return handlers }
        for handler in handlers { handler() }
    }

    /// Resumes a suspended connection; under the lock, so suspend and resume never cross.
    private static func wake(_ state: inout State) {
        guard state.suspended, let address = state.connection else { return }
        state.suspended = false
        MHD_resume_connection(OpaquePointer(bitPattern: address))
    }
}
