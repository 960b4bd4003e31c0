import Foundation
import Testing

@testable import Reporting

@Suite struct ReportEventTests {
    let noon = ReportTimestamp.date(milliseconds: 1_795_262_400_123)

    @Test func encodesInDesignKeyOrderAndOmitsAbsentKeys() {
        let full = ReportEvent(
            .launch, timestamp: noon, layout: "grid", item: "m-017", visitor: "v1", request: "r1",
            properties: ["group": "b", "answer": "42"])
        #expect(
            full.jsonLine
                == #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"launch","layout":"grid","item":"m-017","visitor":"v1","request":"r1","properties":{"answer":"42","group":"b"}}"#
        )
        let bare = ReportEvent(.horizontalSwipe, timestamp: noon, visitor: "v")
        #expect(bare.jsonLine == #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"horizontal_swipe","visitor":"v"}"#)
        var bytes: [UInt8] = []
        bare.appendJSONLine(to: &bytes)
        #expect(bytes.last == UInt8(ascii: "\n") && bytes.filter { $0 == 10 }.count == 1)
    }

    @Test func escapesAwkwardStringsAndRoundTrips() throws {
        let awkward = [
            "quote \" backslash \\ slash /", "new\nline\ttab\r", "\u{0}\u{1}\u{1F}\u{7F}", "héllo wörld ✓ 😀 漢字",
            "\u{2028}\u{2029}", "</script><b>&amp;", "", "\\u0041 not an escape", "a\"\\\"b",
        ]
        for text in awkward {
            let event = ReportEvent(
                "search_submitted", timestamp: noon, layout: text, item: text, visitor: text, request: text,
                properties: [text: text, "k": text])
            let line = event.jsonLine
            #expect(!line.utf8.contains { $0 < 0x20 }, "raw control character in \(line)")
            #expect(try ReportEvent(jsonLine: line) == event)
            let viaFoundation = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(viaFoundation?["item"] as? String == text)
        }
        #expect(ReportEvent(.launch, timestamp: noon, item: "\u{1}").jsonLine.contains(#""item":"\u0001""#))
    }

    @Test func decodesEscapesWrittenByOthers() throws {
        let line = #"{ "event" : "launch", "timestamp":"2026-11-21T12:00:00Z", "item":"\u00e9\ud83d\ude00\/\n", "extra":"x" }"#
        let event = try ReportEvent(jsonLine: line)
        #expect(event.item == "é😀/\n")
        #expect(event.timestamp == ReportTimestamp.date(milliseconds: 1_795_262_400_000))
    }

    @Test func rejectsEveryTornPrefixAndMalformedLine() throws {
        let line = ReportEvent(.longSelected, timestamp: noon, layout: "list", item: "m-1", properties: ["a": "b"]).jsonLine
        let bytes = Array(line.utf8)
        for length in 0..<bytes.count {
            #expect(throws: ReportDecodingError.self) { try ReportEvent(jsonLine: bytes[0..<length]) }
        }
        let malformed = [
            #"{"event":"launch"}"#, #"{"timestamp":"2026-11-21T12:00:00.123Z"}"#,
            #"{"timestamp":"2026-02-30T12:00:00.123Z","event":"launch"}"#,
            #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"launch","layout":7}"#,
            #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"launch"} x"#,
            #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"launch","item":"\ud800"}"#,
            #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"launch","properties":{"a":1}}"#,
            "{\"timestamp\":\"2026-11-21T12:00:00.123Z\",\"event\":\"launch\",\"item\":\"a\tb\"}", "[]", "",
        ]
        for text in malformed {
            #expect(throws: ReportDecodingError.self, "\(text)") { try ReportEvent(jsonLine: text) }
        }
        #expect(throws: ReportDecodingError.self) { try ReportEvent(jsonLine: [0x7B, 0x22, 0xFF, 0x22]) }
    }

    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"), (1_795_262_400_123, "2026-11-21T12:00:00.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (1_709_251_199_999, "2024-02-29T23:59:59.999Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"), (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (-2_203_891_200_000, "1900-03-01T00:00:00.000Z"),
        (13_574_608_496_789, "2400-02-29T12:34:56.789Z"), (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ] as [(Int64, String)])
    func formatsAndParsesKnownEpochs(milliseconds: Int64, text: String) {
        let date = ReportTimestamp.date(milliseconds: milliseconds)
        #expect(ReportTimestamp.string(from: date) == text)
        #expect(ReportTimestamp.parse(text).map(ReportTimestamp.milliseconds) == milliseconds)
    }

    @Test func agreesWithFoundationOnRandomDates() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let ms = Int64.random(in: -2_000_000_000_000...5_000_000_000_000, using: &generator)
            let date = ReportTimestamp.date(milliseconds: ms)
            #expect(ReportTimestamp.string(from: date) == formatter.string(from: date), "\(ms)")
        }
    }

    @Test func rejectsMalformedTimestamps() {
        for text in ["2026-11-21 12:00:00Z", "2026-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2026-11-21T24:00:00Z",
            "2026-11-21T12:00:00.12Z", "2026-11-21T12:00:00.123+01:00", "2026-11-21T12:00:00.123"]
        {
            #expect(ReportTimestamp.parse(text) == nil, "\(text)")
        }
    }

    @Test func namesAreLowerSnakeCase() {
        #expect(ReportEvent.Name.known.count == 17)
        #expect(ReportEvent.Name.known.allSatisfy { $0.isWellFormed })
        for bad in ["", "Launch", "horizontal-swipe", "_x", "9a", "a b"] {
            #expect(!ReportEvent.Name(rawValue: bad).isWellFormed, "\(bad)")
        }
    }
}
