#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's raw lines from a time on, in order, as chunks of whole JSON lines.
public struct ReportLines: Sequence, Sendable {
    let store: ReportStore
    let since: Int64?
    var after: ReportPosition?

    public func makeIterator() -> Iterator {
        var iterator = Iterator(store: store, since: since)
        iterator.after = after
        return iterator
    }

    /// Reads segment after segment, decompressing compressed ones; stops at a read error (logged,
    /// a damaged segment set aside, `failure` set) so the reader can tell the lines are cut short.
    public struct Iterator: IteratorProtocol {
        let store: ReportStore
        let since: Int64?
        var current: String?
        var reader: SegmentLineReader?
        var started = false
        var skipping: Bool
        /// Start after the line at this position (a watcher resuming with `Last-Event-ID`).
        var after: ReportPosition?
        /// Why the lines stopped before the end (a segment that cannot be read); nil while whole.
        public private(set) var failure: String?

        init(store: ReportStore, since: Int64?) {
            self.store = store
            self.since = since
            skipping = since != nil
        }

        public mutating func next() -> [UInt8]? { nextChunk(maxBytes: 64 * 1024) }

        /// The next line (without its newline) and its position; nil at the end. Does not skip
        /// lines before `since`: for iterators from `lines(after:)`.
        public mutating func nextLine() -> (text: ArraySlice<UInt8>, position: ReportPosition)? {
            while failure == nil {
                if reader == nil, !openNext() { return nil }
                do {
                    if let line = try reader!.next() {
                        guard let bytes = line.bytes else { continue }
                        return (bytes, ReportPosition(segment: current ?? "", offset: line.offset))
                    }
                } catch {
                    fail(current ?? "", error)
                    return nil
                }
                reader = nil
            }
            return nil
        }

        /// Whole lines, about `maxBytes` at most; nil at the end.
        public mutating func nextChunk(maxBytes: Int) -> [UInt8]? {
            while failure == nil {
                if reader == nil, !openNext() { return nil }
                do {
                    if skipping {
                        // Lines older than `since` at the start of the first segment read.
                        while let line = try reader!.next() {
                            guard let bytes = line.bytes else { continue }
                            let ms = ReportStore.lineMilliseconds(bytes)
                                ?? (try? ReportEvent(jsonLine: bytes)).map { ReportTimestamp.milliseconds($0.timestamp) }
                            if let ms, ms >= since! {
                                skipping = false
                                var chunk = Array(bytes)
                                chunk.append(10)
                                if let more = try reader!.nextChunk(maxBytes: Swift.max(0, maxBytes - chunk.count)) { chunk += more }
                                return chunk
                            }
                        }
                        reader = nil
                        continue
                    }
                    if let chunk = try reader!.nextChunk(maxBytes: maxBytes) { return Array(chunk) }
                } catch {
                    fail(current ?? "", error)
                    return nil
                }
                reader = nil
            }
            return nil
        }

        /// Opens the segment after the current one (or the first for `since`); false at the end.
        mutating func openNext() -> Bool {
            let segments = store.catalog.segments
            var index: Int
            var from: Int64 = 0
            if let current = current {
                guard let found = segments.firstIndex(where: { $0.stamp > current }) else { return false }
                index = found
            } else if let after {
                // The line's own segment, or the next one if retention removed it.
                guard let found = segments.firstIndex(where: { $0.stamp >= after.segment }) else { return false }
                index = found
                if segments[found].stamp == after.segment {
                    from = after.offset
                    current = segments[found].stamp
                    do {
                        reader = try store.reader(segments[found], from: from, end: segments[found].rollup.bytes)
                        _ = try reader?.next()  // the line the watcher has
                    } catch {
                        fail(after.segment, error)
                        return false
                    }
                    return reader != nil || openNext()
                }
            } else {
                index = 0
                if let since {
                    // The first segment with an event at or after `since`: timestamps never go back.
                    var low = 0
                    var high = segments.count
                    while low < high {
                        let mid = (low + high) / 2
                        if segments[mid].rollup.isEmpty || segments[mid].rollup.lastMs < since { low = mid + 1 } else { high = mid }
                    }
                    index = low
                    guard index < segments.count else { return false }
                    from = store.lineStart(in: segments[index], atOrAfter: since)
                }
            }
            guard index < segments.count else { return false }
            let segment = segments[index]
            current = segment.stamp
            do {
                reader = try store.reader(segment, from: from, end: segment.rollup.bytes)
            } catch {
                fail(segment.stamp, error)
                return false
            }
            return reader != nil || openNext()
        }

        private mutating func fail(_ stamp: String, _ error: any Error) {
            store.readFailed(stamp: stamp, error)
            failure = "\(error)"
            reader = nil
        }
    }
}

extension ReportStore {
    /// The lines with a time at or after `since` (all when nil), oldest first, in chunks of whole
    /// lines: segment by segment, found by binary search over the segments and then over the
    /// bytes of the first one.
    public func lines(since: Date? = nil) -> ReportLines {
        ReportLines(store: self, since: since.map { ReportTimestamp.milliseconds($0) })
    }

    /// The log's newest line; `start` while it holds none (nil when its newest is compressed).
    var newestLine: ReportPosition? {
        guard let newest = catalog.segments.last(where: { !$0.rollup.isEmpty }) else { return .start }
        return lastLine(of: newest)
    }

    /// The start of the last line `entry`'s rollup counts, read back from its end; nil for a
    /// compressed segment or a line longer than the few kilobytes read.
    func lastLine(of entry: SegmentEntry?) -> ReportPosition? {
        guard let entry, !entry.compressed, entry.rollup.bytes > 0 else { return nil }
        let end = entry.rollup.bytes
        let start = max(0, end - 4096)
        let fd = open(catalog.path(entry), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var tail = [UInt8](repeating: 0, count: Int(end - start))
        let read = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard read == tail.count, tail.last == UInt8(ascii: "\n") else { return nil }
        if let newline = tail.dropLast().lastIndex(of: UInt8(ascii: "\n")) {
            return ReportPosition(segment: entry.stamp, offset: start + Int64(newline) + 1)
        }
        return start == 0 ? ReportPosition(segment: entry.stamp, offset: 0) : nil
    }

    /// The lines written after the one at `position`, oldest first (for a watcher that resumes).
    public func lines(after position: ReportPosition) -> ReportLines {
        ReportLines(store: self, since: nil, after: position)
    }

    /// A line start in a plain segment with no line at or after `ms` before it (binary search on
    /// byte offsets; the reader then skips the few older lines left).
    func lineStart(in segment: SegmentEntry, atOrAfter ms: Int64) -> Int64 {
        if segment.compressed {
            // Members start at line starts: the last member whose first line is older than `ms`.
            guard let index = catalog.index(segment) else { return 0 }
            let path = catalog.path(segment)
            var low = 0
            var high = index.members.count - 2
            while low < high {
                let mid = (low + high + 1) / 2
                guard let first = try? index.prefix(64, ofMember: mid, of: path), let lineMs = Self.lineMilliseconds(first[...]) else {
                    high = mid - 1
                    continue
                }
                if lineMs < ms { low = mid } else { high = mid - 1 }
            }
            return index.members[max(0, low)].uncompressed
        }
        let fd = open(catalog.path(segment), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var low: Int64 = 0
        var high = segment.rollup.bytes
        var window = [UInt8](repeating: 0, count: 4096)
        while high - low > 16 * 1024 {
            let mid = (low + high) / 2
            // The first line starting after `mid`.
            let got = (try? window.withUnsafeMutableBytes { try readFully(fd, $0, at: mid - 1) }) ?? 0
            guard let newline = window[..<got].firstIndex(of: 10) else {
                high = mid
                continue
            }
            let start = mid - 1 + Int64(newline) + 1
            guard start < high, let lineMs = Self.lineMilliseconds(window[(newline + 1)..<got]) else {
                high = mid
                continue
            }
            if lineMs < ms { low = start } else { high = mid }
        }
        return low
    }
}
