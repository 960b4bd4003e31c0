/// Gathers C key/value pairs; notes whether any was not valid UTF-8 so the request can be refused.
final class PairCollector {
    var pairs: [(name: String, value: String)] = []
    var invalidName: String?

    func add(_ key: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>?) {
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
    }
}
