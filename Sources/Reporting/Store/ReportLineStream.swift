import Synchronization

/// Raw lines pulled in chunks (e.g. from an HTTP response callback); a `ReportLines` iterator
/// behind a lock, for callers on any thread.
public final class ReportLineStream: Sendable {
    let state: Mutex<ReportLines.Iterator?>

    init(lines: ReportLines) {
        state = Mutex(lines.makeIterator())
    }

    /// The next whole lines, each ending in a newline, about `maxBytes` at most; nil at the end.
    public func nextChunk(maxBytes: Int = 64 * 1024) -> [UInt8]? {
        state.withLock { iterator -> [UInt8]? in
            guard iterator != nil else { return nil }
            if let chunk = iterator!.nextChunk(maxBytes: maxBytes) { return chunk }
            iterator = nil
            return nil
        }
    }

    /// Ends the stream early (e.g. the client went away); later `nextChunk` calls return nil.
    public func close() {
        state.withLock { $0 = nil }
    }
}
