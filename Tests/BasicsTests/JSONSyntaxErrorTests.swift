import Basics
import Foundation
import Testing

@Suite struct JSONSyntaxErrorTests {
    /// Well-formed texts: no error, as Foundation agrees.
    @Test(arguments: [
        "{}", "[]", " {\"a\": [1, -2.5e+3, 0, 0.1, true, false, null, \"x\\\"\\u00e9\\n\"]} ", "\u{FEFF}{\"b\": {}}", "\"text\"", "12",
        String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
    ])
    func acceptsWhatIsWellFormed(json: String) throws {
        #expect(JSONSyntaxError.find(in: Data(json.utf8)) == nil)
    }

    @Test(arguments: [
        ("", 1, 1, "the file ends where a value was expected"),
        ("{\"a\": 01}", 1, 7, "a number cannot start with 0"),
        ("{\"a\": 1.}", 1, 7, "a number needs digits after '.'"),
        ("{\"a\": \"x\\q\"}", 1, 9, #"unknown escape: after a backslash JSON allows " \ / b f n r t, or u and four hexadecimal digits"#),
        ("{\"a\": \"x\\u12\"}", 1, 9, "\\u must be followed by four hexadecimal digits"),
        ("{\"a\": \"line\nbreak\"}", 1, 12, "the string opened at column 7 has no closing '\"' on its line"),
        ("{\"a\": \"open", 1, 7, "the string has no closing '\"'"),
        ("[1, 2\n, 3", 2, 4, "the file ends before the list is closed with ']'"),
        ("{'a': 1}", 1, 2, "expected a key in double quotes, not '''"),
        ("{\"é\": «1»}", 1, 7, "expected a value (a string in double quotes, a number, true, false, null, [ or {), not '«'"),
        (String(repeating: "[", count: 10_000) + "}", 1, 10_001, "expected a value (a string in double quotes, a number, true, false, null, [ or {), not '}'"),
    ])
    func namesTheLineAndColumnOfTheFirstError(json: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(JSONSyntaxError.find(in: Data(json.utf8)))
        #expect(error == JSONSyntaxError(line: line, column: column, reason: reason))
        #expect(throws: (any Error).self, "Foundation refuses it too") { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
    }
}
