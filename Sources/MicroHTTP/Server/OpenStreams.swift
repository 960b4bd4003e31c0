import Synchronization

/// The streaming responses still open, so shutdown can end them: libmicrohttpd must not be
/// stopped while a connection is suspended waiting for a stream's next bytes.
final class OpenStreams: Sendable {
    private let streams = Mutex<[ObjectIdentifier: ResponseStream]>([:])

    func open(_ stream: ResponseStream) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[key] = stream }
        stream.onClose { [weak self] in self?.streams.withLock { _ = $0.removeValue(forKey: key) } }
    }

    var count: Int { streams.withLock { $0.count } }

    /// Ends the streams whose client has gone: a suspended connection is not read, so without
    /// this a closed peer would hold its slot until the next write fails (a heartbeat, seconds away).
    func finishThoseWhosePeerLeft() {
        for stream in streams.withLock({ Array($0.values) }) where stream.peerHasLeft() { stream.finish() }
    }

    func finishAll() {
        for stream in streams.withLock({ Array($0.values) }) { stream.finish() }
    }
}
