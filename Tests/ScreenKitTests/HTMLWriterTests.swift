import TestSupport
import Testing
@testable import ScreenKit

@Suite struct HTMLWriterTests {
    private func written(_ body: (inout HTMLWriter) -> Void) -> String {
        var writer = HTMLWriter(capacity: 64)
        body(&writer)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    /// No raw `< > " '` and every `&` starts one of the entities the writer emits (checked on bytes).
    private func expectInert(_ output: ArraySlice<UInt8>, input: String) {
        for forbidden in "<>\"'".utf8 {
            #expect(!output.contains(forbidden), "raw \(Unicode.Scalar(forbidden)) for input \(input.debugDescription)")
        }
        for index in output.indices where output[index] == UInt8(ascii: "&") {
            #expect(HTMLDocument.entity(in: output, at: index) != nil, "bare & for input \(input.debugDescription)")
        }
    }

    @Test func escapingPropertyOverRandomStrings() {
        var rng = SplitMix64(state: 0x5C12_EE4B)
        for _ in 0..<3_000 {
            let input = RandomStrings.make(using: &rng)
            let expected = RandomStrings.expectedText(input)
            let text = Array(written { $0.text(input) }.utf8)[...]
            expectInert(text, input: input)
            #expect(Array(HTMLDocument.decode(text).utf8) == Array(expected.utf8))

            let attribute = Array(written { $0.attribute("title", input) }.utf8)[...]
            #expect(attribute.starts(with: " title=\"".utf8) && attribute.last == UInt8(ascii: "\""))
            let value = attribute.dropFirst(8).dropLast()
            expectInert(value, input: input)
            #expect(Array(HTMLDocument.decode(value).utf8) == Array(expected.utf8))
        }
    }

    @Test func escapesEachSpecialCharacter() {
        #expect(written { $0.text("a&b<c>d\"e'f") } == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(written { $0.text("\u{0}x\u{7F}\u{85}é\r\n") } == "\u{FFFD}x\u{FFFD}\u{FFFD}é\r\n")
    }

    @Test func escapesAtEveryPositionOfTheWordWideScan() {
        let cases: [(String, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"),
                                         ("'", "&#39;"), ("\u{1}", "\u{FFFD}"), ("\u{9F}", "\u{FFFD}"),
                                         ("\t", "\t"), ("é", "é"), ("\u{A0}", "\u{A0}")]
        for (special, escaped) in cases {
            for position in 0..<24 {
                let prefix = String(repeating: "a", count: position)
                let suffix = String(repeating: "b", count: 23 - position)
                #expect(written { $0.text(prefix + special + suffix + special) } == prefix + escaped + suffix + escaped)
            }
        }
    }

    @Test func staticFragmentsAndNumbersAreWrittenAsIs() {
        let html = written {
            $0.write("<p class=\"x\">")
            $0.write(">")
            $0.write(-1_204)
            $0.write(0)
            $0.attribute("hidden", if: true)
            $0.attribute("disabled", if: false)
            $0.attribute("maxlength", 80)
        }
        #expect(html == "<p class=\"x\">>-12040 hidden maxlength=\"80\"")
    }

    @Test(arguments: ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "  javascript:alert(1)",
                      "\u{1}\u{20}javascript:x", "java\tscript:alert(1)", "jav\nascript:x",
                      "data:text/html;base64,PHNjcmlwdD4=", "DATA:image/svg+xml,<svg>", "vbscript:msgbox",
                      "file:///etc/passwd", "httpx://a", "http\u{0}s://a", "mailto:a@b.c"])
    func unsafeURLsAreRefused(url: String) {
        #expect(!HTMLWriter.isSafeURL(url))
        #expect(written { $0.urlAttribute("href", url) } == " href=\"#\"")
    }

    @Test(arguments: ["/long/m-1", "long/m-1?x=1", "?layout=grid", "#top", "", "//cdn.example/a.png",
                      "http://example.com/a", "HTTPS://example.com/a:b", "  https://x.y", "/a?b=c:d"])
    func safeURLsAreKept(url: String) {
        #expect(HTMLWriter.isSafeURL(url))
    }

    @Test func keptURLIsStillEscaped() {
        #expect(written { $0.urlAttribute("href", "/search?q=a&b=\"c\"") }
            == " href=\"/search?q=a&amp;b=&quot;c&quot;\"")
    }

    @Test func csrfFieldCarriesTheToken() {
        let html = written { $0.csrfField(RenderContext(csrfToken: "t\"k")) }
        #expect(html == "<input type=\"hidden\" name=\"_csrf\" value=\"t&quot;k\">")
    }

    @Test func finishHandsOverEverythingWritten() {
        var writer = HTMLWriter(capacity: 8)
        for _ in 0..<1_000 { writer.write("0123456789") }
        #expect(writer.byteCount == 10_000)
        let bytes = writer.finish()
        #expect(bytes.count == 10_000 && bytes.last == UInt8(ascii: "9"))
    }

    @Test func finishHandsOverTheBufferItselfNotACopy() {
        var writer = HTMLWriter(capacity: 4_096)
        writer.write("<p>")
        let bytes = writer.finish()
        #expect(bytes == Array("<p>".utf8))
        // A copy would be sized to its 3 bytes; the handed-over buffer keeps its capacity.
        #expect(bytes.capacity >= 4_096)
    }

    private struct LocaleKey: RenderContextKey { static let defaultValue = "en" }

    @Test func contextCarriesExtraTypedValues() {
        var context = RenderContext(csrfToken: "x", path: "/search")
        #expect(context[LocaleKey.self] == "en")
        context[LocaleKey.self] = "pl"
        #expect(context[LocaleKey.self] == "pl" && context.path == "/search")
    }
}
