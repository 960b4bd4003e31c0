import Glibc

/// The requests on this thread whose chunked body is arriving.
///
/// libmicrohttpd 0.9.75 keeps a chunk-size line (with its extensions) in the connection's read
/// buffer until the line ends; when the buffer is full first, it answers 500 itself, with no
/// callback. It logs the answer first, on the connection's own thread: the logger finds the
/// request here and answers 400 itself (`DirectAnswer`). Each thread keeps its own list, so no
/// lock is taken, and only requests with a chunked body are listed.
final class ChunkedBodies {
    struct Entry {
        let connection: OpaquePointer
        let state: RequestState
    }

    private(set) var entries: [Entry] = []

    func add(_ connection: OpaquePointer, _ state: RequestState) {
        entries.append(Entry(connection: connection, state: state))
    }

    func remove(_ connection: OpaquePointer) {
        if let index = entries.firstIndex(where: { $0.connection == connection }) { entries.remove(at: index) }
    }

    /// This thread's list, made on first use and freed with the thread.
    static var current: ChunkedBodies {
        if let raw = pthread_getspecific(key) { return Unmanaged<ChunkedBodies>.fromOpaque(raw).takeUnretainedValue() }
        let bodies = ChunkedBodies()
        pthread_setspecific(key, Unmanaged.passRetained(bodies).toOpaque())
        return bodies
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in if let raw { Unmanaged<ChunkedBodies>.fromOpaque(raw).release() } }
        return key
    }()
}
