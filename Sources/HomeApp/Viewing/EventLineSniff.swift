/// The event name of a report line, read from its bytes without decoding the line: the writer's
/// lines are canonical, so the name follows the first `"event":"`. Lets a reader of the whole
/// log decode only the lines it wants.
enum EventLineSniff {
    /// Whether the line's event name starts with one of `prefixes`.
    static func name(of line: ArraySlice<UInt8>, startsWithAnyOf prefixes: [[UInt8]]) -> Bool {
        guard let start = find(eventKey, in: line) else { return false }
        let name = line[start...]
        return prefixes.contains { name.starts(with: $0) }
    }

    private static let eventKey = Array("\"event\":\"".utf8)

    /// The index just after the first `needle` in `line`.
    private static func find(_ needle: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        var at = line.startIndex
        while let quote = line[at...].firstIndex(of: needle[0]) {
            if line[quote...].starts(with: needle) { return quote + needle.count }
            at = quote + 1
        }
        return nil
    }
}
