import Foundation
import Logging

/// Sends a resuming watcher the lines of the log after the position it names, read from the
/// file in small pieces and only as fast as the watcher takes them, then hands it to the live feed.
struct LiveReplay: Sendable {
    let path: String
    let from: Int
    let watcher: LiveWatcher
    let logger: Logger
    /// The most a watcher may wait for its catch-up to be read, before it is cut (and resumes again).
    static let patience: Duration = .seconds(10)
    static let pieceBytes = 8 * 1024

    func run() {
        let stream = watcher.stream
        guard let handle = FileHandle(forReadingAtPath: path) else {
            logger.notice("report stream: the log cannot be read to resume", metadata: ["file": "\(path)"])
            stream.finish()
            return
        }
        defer { try? handle.close() }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        guard from <= size else {
            // Not this log's position (it was replaced): the watcher goes on from now.
            stream.write(Array(": the log was replaced; following it from here\n\n".utf8))
            watcher.caughtUp(through: size)
            return
        }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.patience
        var position = from
        var carry: [UInt8] = []
        var skipPartial = from > 0 && !endsLine(handle, before: from)
        try? handle.seek(toOffset: UInt64(from))
        while position < size {
            while stream.pendingBytes > stream.maximumPendingBytes / 2 {
                guard clock.now < deadline, !stream.isClosed, !stream.isFinished else { stream.finish(); return }
                Thread.sleep(forTimeInterval: 0.01)
            }
            guard !stream.isClosed, !stream.isFinished else { return }
            let piece = (try? handle.read(upToCount: min(Self.pieceBytes, size - position))) ?? nil
            guard let piece, !piece.isEmpty else { break }
            var run = carry + piece
            let runStart = position - carry.count
            position += piece.count
            guard let lastNewline = run.lastIndex(of: UInt8(ascii: "\n")) else { carry = run; continue }
            carry = Array(run[(lastNewline + 1)...])
            run.removeSubrange((lastNewline + 1)...)
            var offset = runStart
            if skipPartial, let first = run.firstIndex(of: UInt8(ascii: "\n")) {
                offset += first + 1
                run.removeSubrange(...first)
                skipPartial = false
            }
            stream.write(ServerSentEvents.events(run, at: offset))
        }
        watcher.caughtUp(through: size)
    }

    /// Whether the byte before `offset` ends a line, so `offset` starts one.
    private func endsLine(_ handle: FileHandle, before offset: Int) -> Bool {
        try? handle.seek(toOffset: UInt64(offset - 1))
        return (try? handle.read(upToCount: 1)) == Data([UInt8(ascii: "\n")])
    }
}
