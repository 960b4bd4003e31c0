import Reporting

/// One event of the database's stream and its key.
public struct DatabaseEvent: Sendable {
    public let key: DatabaseEventKey
    /// The JSON line, without its newline.
    public let line: String

    /// From a row: time, instance, segment, offset, name, layout, item, visitor, request, properties.
    init?(row: [String?]) {
        guard let time = row[0], let instance = row[1], let segment = row[2], let offset = row[3].flatMap({ Int64($0) }),
              let line = DatabaseLines.event(row)?.jsonLine else { return nil }
        key = DatabaseEventKey(time: time, instance: instance, segment: segment, offset: offset)
        self.line = line
    }
}
