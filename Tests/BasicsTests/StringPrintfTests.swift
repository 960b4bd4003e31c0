import Basics
import Foundation
import Testing

/// `String(printf:)` writes what Foundation's `String(format:)` wrote for the server's formats.
@Suite struct StringPrintfTests {
    @Test(arguments: ["%.1f%%", "%+.1f", "%.3f", "%.2f", "%.0f%%", "%g", "%.6g", "%.10f", "p = %.3f", "+%.1f pts"])
    func aNumberIsWrittenAsFoundationWroteIt(format: String) {
        for value in [0.0, -0.0, 0.5, 1.0 / 3.0, -2.75, 12.345, 99.95, 1e-7, 123_456_789.125, -1e21] {
            #expect(String(printf: format, value) == String(format: format, value), "\(format) of \(value)")
        }
    }

    @Test func aTextLongerThanTheFirstBufferIsWrittenWhole() {
        #expect(String(printf: "%.60f", 1.0) == "1." + String(repeating: "0", count: 60))
    }

    @Test func twoNumbersFillTheirPlaces() {
        #expect(String(printf: "%.1f\u{2013}%.1f%%", 1.25, 99.0) == "1.2\u{2013}99.0%")
    }
}
