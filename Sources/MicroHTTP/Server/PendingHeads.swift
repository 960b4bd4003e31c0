import Glibc

/// The requests on this thread whose request line libmicrohttpd has read and whose head it has
/// not yet handed to the access handler.
///
/// libmicrohttpd 0.9.75 checks `Content-Length` between the two, with no callback, and its 400 then
/// carries its head twice. It does log a line first, on the connection's own thread: the logger
/// finds the request here and answers it itself (`DirectAnswer`). Each libmicrohttpd thread keeps
/// its own list, so the request path takes no lock.
final class PendingHeads {
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
    static var current: PendingHeads {
        if let raw = pthread_getspecific(key) { return Unmanaged<PendingHeads>.fromOpaque(raw).takeUnretainedValue() }
        let heads = PendingHeads()
        pthread_setspecific(key, Unmanaged.passRetained(heads).toOpaque())
        return heads
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in if let raw { Unmanaged<PendingHeads>.fromOpaque(raw).release() } }
        return key
    }()
}
