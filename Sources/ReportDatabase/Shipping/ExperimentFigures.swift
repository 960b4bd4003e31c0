import Basics
import Reporting

/// Experiment figures counted while reading events, written in the same transaction as the events
/// (`report_experiment_counts`, `report_experiment_sketches`): the counts of an `ExperimentCounter`,
/// as the local rollups keep them, turned into rows by minute, hour and day, and the visitors'
/// sketches by hour and day. A sketch is merged by register-wise maximum, so shipping the same
/// events twice would not change it either.
struct ExperimentFigures: Sendable {
    typealias Unit = RangeCover.Unit

    struct GroupSketchKey: Hashable {
        let unit: Unit
        let startMs: Int64
        let experiment: String
        let group: String
    }

    private var counted = ExperimentCounter()

    /// Counts the event under every experiment its properties name.
    mutating func add(ms: Int64, name: String, layout: String?, visitor: String?, properties: [String: String]) {
        counted.add(ms: ms, name: name, layout: layout, visitor: visitor, properties: properties)
    }

    /// Every sketch row: the hours, and the days merged from them.
    var spans: [GroupSketchKey: HyperLogLog] {
        var all: [GroupSketchKey: HyperLogLog] = [:]
        for unit in [Unit.hour, .day] {
            for (key, sketch) in counted.visitors(every: unit.ms / Unit.hour.ms) {
                all[GroupSketchKey(unit: unit, startMs: key.startMs, experiment: key.experiment, group: key.group)] = sketch
            }
        }
        return all
    }

    /// The session's staging table for the counts; made once per connection.
    static let stagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS report_experiment_staging
            (span text, start timestamptz, experiment text, grp text, name text, layout text, events bigint)
        ON COMMIT DELETE ROWS
        """

    /// Adds the figures to `instance`'s rows. Inside the caller's transaction, after `stagingSQL`.
    func write(_ connection: PostgresConnection, instance: String) throws {
        guard !counted.isEmpty else { return }
        var rows: [UInt8]? = countRows
        try connection.copyIn("COPY report_experiment_staging FROM STDIN") { defer { rows = nil }; return rows }
        try connection.query("""
            INSERT INTO report_experiment_counts (span, start, instance, experiment, grp, name, layout, events)
            SELECT span, start, $1, experiment, grp, name, layout, events FROM report_experiment_staging
            ON CONFLICT (span, start, instance, experiment, grp, name, layout)
            DO UPDATE SET events = report_experiment_counts.events + excluded.events
            """, [instance])
        // Only this instance's shipper writes its rows: read, merge here, write back.
        var merged = spans
        guard !merged.isEmpty else { return }
        let starts = Set(merged.keys.map { ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: $0.startMs)) })
        let stored = try connection.query("""
            SELECT span, (extract(epoch FROM start) * 1000)::bigint AS ms, experiment, grp,
                   encode(registers, 'hex') AS registers
            FROM report_experiment_sketches WHERE instance = $1 AND start = ANY($2::timestamptz[])
            """, [instance, "{" + starts.sorted().joined(separator: ",") + "}"])
        for row in stored.rows {
            guard let unit = row[0].flatMap(Unit.init(rawValue:)), let ms = row[1].flatMap({ Int64($0) }),
                  let experiment = row[2], let group = row[3], let sketch = row[4].flatMap(Self.sketch(hex:))
            else { continue }
            merged[GroupSketchKey(unit: unit, startMs: ms, experiment: experiment, group: group)]?.merge(sketch)
        }
        var values: [String] = []
        var parameters: [String?] = [instance]
        for (key, sketch) in merged {
            let at = parameters.count
            values.append("($1, $\(at + 1), $\(at + 2)::timestamptz, $\(at + 3), $\(at + 4), decode($\(at + 5), 'hex'))")
            parameters += [key.unit.rawValue, ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: key.startMs)),
                           key.experiment, key.group, Self.hex(sketch.registers)]
        }
        try connection.query("""
            INSERT INTO report_experiment_sketches (instance, span, start, experiment, grp, registers)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (span, start, instance, experiment, grp) DO UPDATE SET registers = excluded.registers
            """, parameters)
    }

    /// The counts as COPY rows: span, start, experiment, group, name, layout, events.
    private var countRows: [UInt8] {
        var out = CopyRows()
        for unit in Unit.allCases {
            for (key, count) in counted.counts(every: unit.ms / Unit.minute.ms) {
                out.text(unit.rawValue)
                out.tab()
                out.bytes.append(contentsOf: ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: key.startMs)).utf8)
                for field in [key.experiment, key.group, key.event, key.layout] {
                    out.tab()
                    out.text(field)
                }
                out.tab()
                out.number(Int64(count))
                out.bytes.append(10)
            }
        }
        return out.bytes
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A sketch from `encode(registers, 'hex')`; nil if it is not one.
    static func sketch(hex: String) -> HyperLogLog? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        let digits = Array(hex.utf8)
        guard digits.count == HyperLogLog.count * 2 else { return nil }
        var registers = [UInt8](repeating: 0, count: HyperLogLog.count)
        for index in registers.indices {
            guard let high = nibble(digits[2 * index]), let low = nibble(digits[2 * index + 1]) else { return nil }
            registers[index] = high << 4 | low
        }
        return HyperLogLog(registers: registers)
    }
}
