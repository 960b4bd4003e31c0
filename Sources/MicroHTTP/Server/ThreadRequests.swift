import Glibc

/// Requests of one libmicrohttpd thread that libmicrohttpd 0.9.75 may refuse with no callback,
/// answering badly itself. It logs a line first, on the connection's own thread: the logger
/// finds the request in this thread's list and answers it itself (`DirectResponse`). Each thread
/// keeps its own lists, so the request path takes no lock.
///
/// - `pendingHeads`: the request line read, the head not yet handed to the access handler.
///   libmicrohttpd checks `Content-Length` between the two, and its 400 then carries its head twice.
/// - `chunkedBodies`: a chunked body arriving. libmicrohttpd keeps a chunk-size line (with its
///   extensions) in the read buffer until the line ends; when the buffer is full first, it
///   answers 500. Only requests with a chunked body are listed.
final class ThreadRequests {
    struct Entry {
        let connection: OpaquePointer
        /// Not retained: libmicrohttpd holds the state (`con_cls`) until the request completes,
        /// and the completion takes it off both lists first. Listing it then costs no reference count.
        private let unretained: Unmanaged<RequestState>
        var state: RequestState { unretained.takeUnretainedValue() }

        init(connection: OpaquePointer, state: RequestState) {
            self.connection = connection
            unretained = Unmanaged.passUnretained(state)
        }
    }

    /// Touched by its own thread only, never through overlapping accesses: no exclusivity check.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []

    func add(_ connection: OpaquePointer, _ state: RequestState) {
        entries.append(Entry(connection: connection, state: state))
    }

    func remove(_ connection: OpaquePointer) {
        // Nearly always the request this thread listed last.
        if entries.last?.connection == connection {
            entries.removeLast()
            return
        }
        if let index = entries.firstIndex(where: { $0.connection == connection }) { entries.remove(at: index) }
    }

    static var pendingHeads: ThreadRequests { lists.heads }
    static var chunkedBodies: ThreadRequests { lists.bodies }

    /// The server answered the request libmicrohttpd is refusing on this thread: the error line
    /// it logs next, right after, is not logged again.
    static var answeredRefusal: Bool {
        get { withLists { $0.answeredRefusal } }
        set { withLists { $0.answeredRefusal = newValue } }
    }

    /// Lists a request whose head is arriving, and takes it off once the head is in: on every
    /// request, so the thread's lists are borrowed rather than retained and released.
    static func addPendingHead(_ connection: OpaquePointer, _ state: RequestState) {
        withLists { $0.heads.add(connection, state) }
    }

    static func removePendingHead(_ connection: OpaquePointer) {
        withLists { $0.heads.remove(connection) }
    }

    private final class Lists {
        let heads = ThreadRequests()
        let bodies = ThreadRequests()
        var answeredRefusal = false
    }

    /// This thread's lists, made on first use and freed with the thread.
    private static var lists: Lists { withLists { $0 } }

    private static func withLists<R>(_ body: (Lists) -> R) -> R {
        if let raw = pthread_getspecific(key) { return Unmanaged<Lists>.fromOpaque(raw)._withUnsafeGuaranteedRef(body) }
        let lists = Lists()
        pthread_setspecific(key, Unmanaged.passRetained(lists).toOpaque())
        return body(lists)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in if let raw { Unmanaged<Lists>.fromOpaque(raw).release() } }
        return key
    }()
}
