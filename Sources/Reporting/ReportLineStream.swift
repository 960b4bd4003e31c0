import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raw well-formed log lines, pulled in chunks (e.g. from an HTTP response callback); closes its file at the end.
public final class ReportLineStream: Sendable {
    struct State {
        var scanner: ForwardLineScanner?
    }

    let reader: ReportReader
    let since: Date?
    let state: Mutex<State>

    init(reader: ReportReader, scanner: ForwardLineScanner?, since: Date?) {
        self.reader = reader
        self.since = since
        self.state = Mutex(State(scanner: scanner))
    }

    /// The next whole lines, each ending in a newline, about `maxBytes` at most (one longer line is
    /// returned whole); nil at the end of the file as it was when the stream was made, or on a read error.
    public func nextChunk(maxBytes: Int = 64 * 1024) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            guard var scanner = state.scanner else { return nil }
            var chunk: [UInt8] = []
            var finished = false
            do {
                while chunk.count < maxBytes {
                    guard let line = try scanner.next() else {
                        finished = true
                        break
                    }
                    guard let event = reader.decode(line), let bytes = line.bytes else { continue }
                    if let since, event.timestamp < since { continue }
                    chunk.append(contentsOf: bytes)
                    chunk.append(UInt8(ascii: "\n"))
                }
            } catch {
                reader.logger.error("reading report log failed", metadata: ["file": "\(reader.path)", "error": "\(error)"])
                finished = true
            }
            if finished {
                closeDescriptor(scanner.fd)
                state.scanner = nil
            } else {
                state.scanner = scanner
            }
            return chunk.isEmpty ? nil : chunk
        }
    }

    /// Closes the file early (e.g. the client went away); later `nextChunk` calls return nil.
    public func close() {
        state.withLock { state in
            if let scanner = state.scanner { closeDescriptor(scanner.fd) }
            state.scanner = nil
        }
    }

    deinit { close() }
}
