import Foundation
import TestSupport
import Testing

@testable import Reporting

/// The hand-written line encoder against a plain reference one, byte for byte.
@Suite struct ReportEncodingTests {
    /// Bits of text chosen around the escaping rules: `"`, `\` and controls are escaped, neighbours
    /// and non-ASCII are not.
    static let pieces = [
        "a", "Z", "0", " ", "!", "#", "/", "[", "]", "~", "\"", "\\", "\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1F}",
        "\u{7F}", "\u{80}", "é", "\u{A0}", "✓", "漢", "😀", "\u{2028}",
    ]

    /// A line built the obvious way: Foundation for the timestamp, scalar by scalar for the strings.
    static func referenceLine(_ event: ReportEvent, _ formatter: ISO8601DateFormatter) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += #"\""#
                case "\\": out += #"\\"#
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += #"\u"# + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        var fields = [
            #""timestamp":"# + quoted(formatter.string(from: event.timestamp)), #""event":"# + quoted(event.name.rawValue),
        ]
        for (key, value) in [("layout", event.layout), ("item", event.item), ("visitor", event.visitor), ("request", event.request)] {
            if let value { fields.append(quoted(key) + ":" + quoted(value)) }
        }
        if !event.properties.isEmpty {
            let members = event.properties.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + quoted($0.value) }
            fields.append(#""properties":{"# + members.joined(separator: ",") + "}")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// Random events with every optional field present or not and strings of 0 to `maxPieces` pieces.
    static func randomEvents(_ count: Int, maxPieces: Int, seed: UInt64) -> [ReportEvent] {
        var random = SplitMix64(state: seed)
        func text() -> String {
            (0..<Int.random(in: 0...maxPieces, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        func maybe() -> String? { Bool.random(using: &random) ? text() : nil }
        return (0..<count).map { _ in
            let name = Bool.random(using: &random) ? ReportEvent.Name.known.randomElement(using: &random)! : .init(rawValue: text())
            let ms = Int64.random(in: -2_000_000_000_000...5_000_000_000_000, using: &random)
            var properties: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) { properties[text()] = text() }
            return ReportEvent(
                name, timestamp: ReportTimestamp.date(milliseconds: ms), layout: maybe(), item: maybe(), visitor: maybe(),
                request: maybe(), properties: properties)
        }
    }

    /// The first event whose line differs from the reference (compared as bytes: String's `==`
    /// would let canonically equivalent text pass), with both lines; nil if none does.
    static func firstMismatch(_ events: [ReportEvent]) -> String? {
        let formatter = formatter()
        for event in events {
            let reference = referenceLine(event, formatter)
            var appended = Array("earlier line\n".utf8)
            event.appendJSONLine(to: &appended)
            if Array(event.jsonLine.utf8) != Array(reference.utf8) || appended != Array("earlier line\n\(reference)\n".utf8) {
                return "got \(event.jsonLine.debugDescription), expected \(reference.debugDescription)"
            }
        }
        return nil
    }

    @Test func randomEventsMatchTheReference() {
        let mismatch = Self.firstMismatch(Self.randomEvents(2000, maxPieces: 40, seed: 1))
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test func everyAwkwardCharacterAtEveryPositionMatchesTheReference() {
        // Each piece at each position of strings up to three words long, between ASCII or non-ASCII.
        let noon = ReportTimestamp.date(milliseconds: 1_795_262_400_123)
        var events: [ReportEvent] = []
        for fill in ["a", "é"] {
            for length in 1...24 {
                for position in 0..<length {
                    for piece in Self.pieces {
                        let text = String(repeating: fill, count: position) + piece
                            + String(repeating: fill, count: length - position - 1)
                        events.append(ReportEvent(.launch, timestamp: noon, item: text, properties: [text: text]))
                    }
                }
            }
        }
        let mismatch = Self.firstMismatch(events)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test func writtenSegmentsAndWatchersMatchTheReference() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        // One day's times in order (the log keeps them monotonic); the events span several chunks.
        let noon = ReportTimestamp.milliseconds(ReportTimestamp.parse("2026-11-21T12:00:00Z")!)
        let events = Self.randomEvents(3000, maxPieces: 60, seed: 2).enumerated().map { index, event in
            var event = event
            event.timestamp = ReportTimestamp.date(milliseconds: noon + Int64(index))
            return event
        }
        let log = try ReportLog(directory: directory.path("reports"))
        let watched = Collected<String>()
        _ = log.subscribe { watched.append($0) }
        for event in events { log.record(event) }
        log.shutdown()
        let formatter = Self.formatter()
        let references = events.map { Array(Self.referenceLine($0, formatter).utf8) }
        #expect(references.reduce(0) { $0 + $1.count } > 3 * 256 * 1024)
        let file: [UInt8] = Array(log.store.lines().joined())
        let expected: [UInt8] = references.flatMap { $0 + [UInt8(10)] }
        let fileMatches = file == expected
        #expect(fileMatches, "the segments differ from byte \(zip(file, expected).prefix { $0 == $1 }.count)")
        let watchersMatch = watched.all.map { Array($0.utf8) } == references
        #expect(watchersMatch)
    }
}
