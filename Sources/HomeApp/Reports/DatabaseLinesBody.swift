#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MicroHTTP
import ReportDatabase

/// `/reports.jsonl` with a report database: every instance's lines, a page of rows at a time,
/// written to a response stream by a report-pool job that waits while the client is behind (so
/// memory stays bounded and libmicrohttpd's threads never wait on the database).
enum DatabaseLinesBody {
    /// Bytes queued for the client above which the job waits for it to read.
    static let highWater = 1 << 20

    /// The response for `lines`, whose first page is read here (on the pool); nil when the
    /// database cannot answer, so the caller serves the local log instead.
    static func response(_ lines: DatabaseLines, pool: RequestPool, logger: Logger) throws(HTTPError) -> Response? {
        var lines = lines
        let first: [UInt8]?
        do { first = try lines.next() } catch { return nil }
        let stream = ResponseStream(maximumPendingBytes: 4 * highWater)
        if let first { _ = stream.write(first) } else { stream.finish() }
        if first != nil {
            let started = pool.pool.submit { [lines] in
                var lines = lines
                pump(&lines, into: stream, logger: logger)
            }
            guard started else { throw pool.busy }
        }
        return Response(headers: Headers([("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")]),
                        body: .stream(stream))
    }

    static func pump(_ lines: inout DatabaseLines, into stream: ResponseStream, logger: Logger) {
        defer { stream.finish() }
        // Finished by someone else: the server is shutting down, or the client fell too far behind.
        while !stream.isClosed && !stream.isFinished {
            if stream.pendingBytes > highWater {
                stream.waitForRoom(below: highWater, seconds: 1)
                continue
            }
            do {
                guard let page = try lines.next() else { return }
                guard stream.write(page) else { return }
            } catch {
                logger.warning("report database failed mid-export; /reports.jsonl cut short", metadata: ["error": "\(error)"])
                return
            }
        }
    }
}
