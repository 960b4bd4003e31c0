#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DatabaseReports {
    /// Records report sign-outs (session id, the Unix time its cookie lapses) for every instance.
    public func recordSignOuts(_ sessions: [(session: String, expiry: Int)]) throws {
        guard !sessions.isEmpty else { return }
        try withConnection { connection in
            for (session, expiry) in sessions {
                try connection.query("""
                    INSERT INTO report_sign_outs (session, expires) VALUES ($1, to_timestamp($2::bigint))
                    ON CONFLICT (session) DO NOTHING
                    """, [session, "\(expiry)"])
            }
        }
    }

    /// Every sign-out that has not lapsed, from every instance; lapsed ones are deleted on the way.
    public func signOuts() throws -> [(session: String, expiry: Int)] {
        try withConnection { connection in
            try connection.query("DELETE FROM report_sign_outs WHERE expires <= now()")
            let rows = try connection.query("SELECT session, extract(epoch FROM expires)::bigint AS expiry FROM report_sign_outs")
            return (0..<rows.count).compactMap { row in
                guard let session = rows.value(row, "session"), let expiry = rows.int(row, "expiry") else { return nil }
                return (session, expiry)
            }
        }
    }
}
