import Basics
import Foundation
import Testing

/// Percent-encoding as Foundation's `addingPercentEncoding` and `removingPercentEncoding` did it.
@Suite struct PercentEncodingTests {
    @Test(arguments: ["", "plain", "a b&c=d/e?f#g", "100%", "Amélie 🎬", "-._~:", "\u{0}\n"])
    func encodingKeepsTheUnreservedAndEscapesTheRest(text: String) {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
        #expect(encoded == text.addingPercentEncoding(withAllowedCharacters: unreserved))
        #expect(PercentEncoding.decode(encoded) == text)
    }

    @Test(arguments: ["%", "%4", "%zz", "a%g1", "%FF", "%C3"])
    func aBrokenEscapeOrBytesThatAreNotUTF8DecodeToNil(text: String) {
        #expect(PercentEncoding.decode(text) == nil)
        #expect(text.removingPercentEncoding == nil)
    }

    @Test func escapesInEitherCaseDecode() {
        #expect(PercentEncoding.decode("caf%C3%a9+%2F") == "café+/")
    }
}
