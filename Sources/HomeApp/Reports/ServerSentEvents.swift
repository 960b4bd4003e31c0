/// Report lines as server-sent events: `id:` is where the line ends in the log (where a watcher
/// that reconnects with it as `Last-Event-ID` resumes), `data:` the line itself.
enum ServerSentEvents {
    /// The events for the whole lines of `run`, which starts at `offset` in the log; lines that
    /// end at or before `after` are left out (a watcher has them already).
    static func events(_ run: [UInt8], at offset: Int, after: Int = -1) -> [UInt8] {
        var events: [UInt8] = []
        events.reserveCapacity(run.count + run.count / 8)
        var start = 0
        while let newline = run[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let end = offset + newline + 1
            if end > after, isLine(run[start..<newline]) {
                events += Array("id: \(end)\ndata: ".utf8)
                events += run[start..<newline]
                events += [UInt8(ascii: "\n"), UInt8(ascii: "\n")]
            }
            start = newline + 1
        }
        return events
    }

    /// A JSON object line; a line torn by a crash is not sent.
    static func isLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}")
    }
}
