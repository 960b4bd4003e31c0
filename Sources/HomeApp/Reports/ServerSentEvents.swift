import ReportDatabase
import Reporting

/// Report lines as server-sent events: `id:` is the line's position in the store, or with a
/// report database its key in the shared order (a watcher that reconnects with it as
/// `Last-Event-ID` resumes after it), `data:` the line itself.
enum ServerSentEvents {
    static func events(_ lines: [ReportWatcher.Line]) -> [UInt8] {
        var events: [UInt8] = []
        for line in lines { events += Array("id: \(line.position)\ndata: \(line.text)\n\n".utf8) }
        return events
    }

    /// Every instance's lines: those in the shared order with their key as `id:`, those that came
    /// too late for it without one (so a watcher's last id stays the newest key it was sent).
    static func events(_ batch: DatabaseLineFeed.Batch) -> [UInt8] {
        var events: [UInt8] = []
        for event in batch.late { events += Array("data: \(event.line)\n\n".utf8) }
        for event in batch.ordered { events += Array("id: \(event.key)\ndata: \(event.line)\n\n".utf8) }
        return events
    }

    /// The event of one line read back from the store.
    static func event(_ text: ArraySlice<UInt8>, at position: ReportPosition) -> [UInt8] {
        Array("id: \(position)\ndata: ".utf8) + text + [UInt8(ascii: "\n"), UInt8(ascii: "\n")]
    }

    /// A JSON object line; a line torn by a crash is not sent.
    static func isLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}")
    }
}
