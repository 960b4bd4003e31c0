import Basics
import MicroHTTP
import Reporting
import Synchronization

/// The watchers of `/reports/stream`: each gets every new report line as a server-sent event,
/// and a heartbeat comment on a timer so a watcher that left is noticed and dropped.
final class LiveReports: Service {
    let name = "report stream heartbeat"
    /// The open streams, shared with the heartbeat timer.
    final class Watchers: Sendable {
        let streams = Mutex<[ObjectIdentifier: ResponseStream]>([:])
        var all: [ResponseStream] { streams.withLock { Array($0.values) } }
    }

    private let log: ReportLog
    private let watchers = Watchers()
    private let heartbeat: PeriodicTask

    init(log: ReportLog, heartbeatInterval: Double) {
        self.log = log
        heartbeat = PeriodicTask(name: "heartbeat", every: heartbeatInterval) { [watchers] in
            for stream in watchers.all { stream.write(Array(": heartbeat\n\n".utf8)) }
        }
    }

    /// A new watcher's stream: it starts with a retry hint, then one `data:` line per event.
    func watch() -> ResponseStream {
        let stream = ResponseStream()
        stream.write(Array("retry: 3000\n: watching the report log\n\n".utf8))
        let key = ObjectIdentifier(stream)
        let subscription = log.subscribe { [weak stream] line in
            stream?.write(Array("data: \(line)\n\n".utf8))
        }
        watchers.streams.withLock { $0[key] = stream }
        stream.onClose { [log, watchers] in
            log.unsubscribe(subscription)
            watchers.streams.withLock { _ = $0.removeValue(forKey: key) }
        }
        return stream
    }

    func start() throws { try heartbeat.start() }

    func shutdown() { heartbeat.shutdown() }
}
