#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The lines after a position, read from the local segments and turned into COPY rows: what one
/// transaction ships. May cross into later segments; ends at the last complete line.
struct ShipBatch: Sendable {
    var rows: EventRows
    /// Events per minute, name and layout: the batch's share of `report_minutes`, counted here
    /// so the database only adds a few rows.
    var minutes: [MinuteKey: Int] = [:]
    /// The batch's share of the experiment rollups.
    var experiments = ExperimentFigures()
    /// The batch's experiment visitors while reading; then, once read, their COPY rows (`visitorRows`).
    var visitors = VisitorChanges()
    var visitorRows = ""
    /// The newest event time shipped (ms): the batch is complete up to it.
    var newestMs: Int64?
    /// Lines that were not events (torn or edited by hand): skipped, their bytes still passed.
    var malformed = 0
    /// Days (since 1970, UTC) the events fall on: the partitions they need.
    var days = Set<Int64>()
    /// The position after the batch; equal to the start when there was nothing new.
    var end: ShipPosition
    /// True when the batch reached the end of what was written when it was read.
    var reachedEnd = false
    /// Bytes at the end of a closed segment that were not a whole line (a write torn by a crash).
    var tornBytes = 0
    /// Segments named by the position but gone from disk (deleted by hand): lines lost.
    var missingSegment: String?
    /// The segment the batch stopped at because it cannot be read (or was set aside and not
    /// released), and why: the position waits there until an operator acts.
    var blocked: (segment: String, reason: String)?
    /// Set-aside segments an operator released, passed from `from` on: their lines not shipped.
    var skipped: [(segment: SetAsideSegment, from: Int64)] = []

    static let chunkBytes = 4 << 20

    struct MinuteKey: Hashable {
        let minuteMs: Int64
        let name: String
        let layout: String
    }

    /// Reads from `start` until `maxLines` lines or the end of what is written. In a `backlog`
    /// (the batch before was full) room for `maxLines` visitors is made at once.
    static func read(_ source: SegmentSource, from start: ShipPosition, maxLines: Int, instance: String,
                     backlog: Bool = false) -> ShipBatch
    {
        var batch = lines(source, from: start, maxLines: maxLines, instance: instance, backlog: backlog)
        // Encoded here, on the reading thread, rather than in the transaction.
        if !batch.visitors.isEmpty {
            batch.visitorRows = String(decoding: ExperimentVisitorRows.copyRows(batch.visitors), as: UTF8.self)
            batch.visitors = VisitorChanges()
        }
        return batch
    }

    private static func lines(_ source: SegmentSource, from start: ShipPosition, maxLines: Int, instance: String,
                              backlog: Bool) -> ShipBatch
    {
        var batch = ShipBatch(rows: EventRows(instance: instance), end: start)
        if backlog { batch.visitors.reserveCapacity(maxLines) }
        let segments = source.segments()
        guard var index = segments.firstIndex(where: { $0.name >= start.segment }) else {
            batch.reachedEnd = true
            return batch
        }
        if segments[index].name != start.segment, !start.segment.isEmpty, start.offset > 0 {
            batch.missingSegment = start.segment
        }
        if segments[index].name != start.segment { batch.end = ShipPosition(segment: segments[index].name, offset: 0) }
        reading: while batch.rows.count < maxLines {
            let segment = segments[index]
            if let setAside = segment.setAside {
                guard setAside.released else {
                    batch.blocked = (segment.name, "set aside in \(DamagedSegments.folderName)/: \(setAside.reason)")
                    break
                }
                // Released by an operator: passed on purpose once a later segment exists.
                guard index + 1 < segments.count else { batch.reachedEnd = true; break }
                batch.skipped.append((setAside, batch.end.offset))
                index += 1
                batch.end = ShipPosition(segment: segments[index].name, offset: 0)
                continue
            }
            let chunk: [UInt8], atEnd: Bool, unterminated: Int
            switch source.read(segment.name, from: batch.end.offset, limit: chunkBytes) {
            case .lines(let bytes, let end, let tail):
                (chunk, atEnd, unterminated) = (bytes, end, tail)
            case .unreadable(let reason):
                // Nothing of this read is taken: bytes inflated before the damage may be wrong.
                batch.blocked = (segment.name, reason)
                return batch
            case .gone:
                // Gone between listing and reading (retention): nothing more to take from it.
                batch.missingSegment = segment.name
                guard index + 1 < segments.count else { batch.reachedEnd = true; break reading }
                index += 1
                batch.end = ShipPosition(segment: segments[index].name, offset: 0)
                continue reading
            }
            let used = batch.take(chunk, segment: segment.name, maxLines: maxLines)
            if batch.rows.count >= maxLines { break }
            if !atEnd, used > 0 { continue }  // more in this segment
            // The end of what this segment holds now.
            guard segment.closed, index + 1 < segments.count else {
                batch.reachedEnd = true
                break
            }
            batch.tornBytes += chunk.count - used + unterminated
            index += 1
            batch.end = ShipPosition(segment: segments[index].name, offset: 0)
        }
        return batch
    }

    /// The per-minute counts as COPY rows: minute, name, layout, events.
    var minuteRows: [UInt8] {
        var out = CopyRows()
        for (key, count) in minutes {
            out.bytes.append(contentsOf: ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: key.minuteMs)).utf8)
            out.tab()
            out.text(key.name)
            out.tab()
            out.text(key.layout)
            out.tab()
            out.number(Int64(count))
            out.bytes.append(10)
        }
        return out.bytes
    }

    /// Takes the complete lines of `chunk` (read at `end`); returns the bytes used.
    private mutating func take(_ chunk: [UInt8], segment: String, maxLines: Int) -> Int {
        var used = 0
        chunk.withUnsafeBufferPointer { bytes in
            var lineStart = 0
            while rows.count < maxLines,
                  let newline = UnsafeBufferPointer(rebasing: bytes[lineStart...]).firstIndex(of: 10).map({ $0 + lineStart })
            {
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<newline])
                let offset = end.offset + Int64(lineStart)
                if line.isEmpty {
                    // A blank line carries no event.
                } else if let event = try? ReportEvent(jsonLine: line) {
                    rows.append(event, segment: segment, offset: offset)
                    let ms = ReportTimestamp.milliseconds(event.timestamp)
                    days.insert(EventPartitions.day(ms: ms))
                    let minute = ms >= 0 ? ms / 60_000 * 60_000 : (ms - 59_999) / 60_000 * 60_000
                    minutes[MinuteKey(minuteMs: minute, name: event.name.rawValue, layout: event.layout ?? ""), default: 0] += 1
                    experiments.add(ms: ms, name: event.name.rawValue, layout: event.layout, visitor: event.visitor,
                                    properties: event.properties)
                    visitors.add(ms: ms, name: event.name, visitor: event.visitor, properties: event.properties)
                    newestMs = max(newestMs ?? ms, ms)
                } else {
                    malformed += 1
                }
                lineStart = newline + 1
            }
            used = lineStart
        }
        end.offset += Int64(used)
        return used
    }
}
