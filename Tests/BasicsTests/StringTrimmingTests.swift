import Basics
import Foundation
import Testing

/// Trimming as Foundation's `.whitespaces` and `.whitespacesAndNewlines` trimmed.
@Suite struct StringTrimmingTests {
    static let samples = ["", " ", "\t a b \t", "\n a \n", "\u{00A0}x\u{2003}", "\u{2028}y\u{0085}", "  é ", "a", "\r\n"]

    @Test(arguments: samples)
    func spacesAndTabsGoAsWithFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: samples)
    func lineBreaksGoToo(text: String) {
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aSubstringIsTrimmedLikeAString() {
        #expect("x  -a-b--  y".dropFirst().dropLast().trimmingWhitespace().trimming(while: { $0 == "-" }) == "a-b")
    }
}
