import CMicroHTTPD
import Glibc

/// Gathers C key/value pairs; notes whether any was not valid UTF-8 so the request can be refused.
struct PairCollector {
    var pairs: [(name: String, value: String)] = []
    var invalidName: String?
    /// The values of every `Cookie` header joined by `; `, noted in the same pass.
    var cookie = ""

    /// Every pair of `kind` on `connection`, read in one pass into storage sized by a first count.
    static func collect(_ kind: MHD_ValueKind, on connection: OpaquePointer) -> PairCollector {
        var collector = PairCollector()
        let count = MHD_get_connection_values(connection, kind, nil, nil)
        guard count > 0 else { return collector }
        collector.pairs.reserveCapacity(Int(count))
        withUnsafeMutablePointer(to: &collector) {
            _ = MHD_get_connection_values(connection, kind, collectPairCallback, $0)
        }
        return collector
    }

    mutating func add(_ key: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>?) {
        guard let name = String(validatingCString: key) else {
            invalidName = invalidName ?? String(cString: key)
            return
        }
        guard let value else { pairs.append((name, "")); return }
        guard let text = String(validatingCString: value) else {
            invalidName = invalidName ?? name
            return
        }
        pairs.append((name, text))
        if strcasecmp(key, "cookie") == 0 { cookie = cookie.isEmpty ? text : cookie + "; " + text }
    }
}
