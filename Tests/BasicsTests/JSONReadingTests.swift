import Basics
import Foundation
import Testing

/// The one reader of JSON documents and the one writer of JSON text.
@Suite struct JSONReadingTests {
    @Test func aDocumentReadsIntoItsValues() throws {
        let value = try JSONValue(reading: Data(#"{"a": [1, -2.5, true, null], "b": {"c": "x\/y\u00e9"}}"#.utf8))
        #expect(value == .object(["a": .array([.number(1), .number(-2.5), .bool(true), .null]),
                                  "b": .object(["c": .string("x/yé")])]))
        #expect(value.members?["b"]?.members?["c"]?.string == "x/yé")
        #expect(value.string == nil && JSONValue.number(1).members == nil)
    }

    @Test func aBrokenDocumentSaysWhereItIsBroken() throws {
        let json = Data("{\n  \"a\": 1\n  \"b\": 2\n}".utf8)
        let error = try #require(throws: JSONReadError.self) { try JSONValue(reading: json) }
        #expect(error.syntax == JSONSyntaxError(line: 3, column: 3, reason: "expected ',' or '}', not '\"'"))
        #expect(error.description == " at line 3, column 3: expected ',' or '}', not '\"'")
    }

    @Test func aWellFormedDocumentThatCannotBeReadSaysWhatFoundationSays() throws {
        let error = try #require(throws: JSONReadError.self) { try JSONValue(reading: Data("[1e400]".utf8)) }
        #expect(error.syntax == nil)
        #expect(!error.detail.isEmpty && !error.detail.hasSuffix("."), "\(error.detail)")
        #expect(error.description == " (\(error.detail))")
    }

    @Test func writtenTextReadsBackAsTheSameValue() throws {
        let value = JSONValue.object([
            "text": .string("quote \" backslash \\ slash / tab \t newline \n bell \u{7} separator \u{2028} é 🎬"),
            "numbers": .array([.number(0), .number(-3), .number(0.1), .number(1e-5), .number(123_456_789_012)]),
            "empty": .object([:]), "list": .array([.null, .bool(false)]),
        ])
        #expect(try JSONValue(reading: Data(value.text.utf8)) == value)
        #expect(JSONText.string("a\u{2028}b\u{1}") == #""a\u2028b\u0001""#, "what would end a script line is escaped")
    }

    @Test func roundedNumbersHaveSixSignificantDigitsAndNoExponent() {
        #expect(JSONText.rounded(0.1234567) == "0.123457")
        #expect(JSONText.rounded(0.000012345) == "0.0000123450")
        #expect(JSONText.rounded(.nan) == "null" && JSONText.number(.infinity) == "null")
        #expect(JSONText.counts(["b": 2, "a": 1]) == #"{"a":1,"b":2}"#)
    }
}
