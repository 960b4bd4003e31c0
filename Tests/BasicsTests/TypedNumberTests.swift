import Basics
import Testing

/// Numbers as people type them into forms.
@Suite struct TypedNumberTests {
    @Test(arguments: ["+5", "-5", " 5", "5 ", "0x10", "1e2", "1_000", "", "5.0", "١٢"])
    func aWholeNumberIsDigitsAlone(_ text: String) {
        #expect(TypedNumber.whole(text) == nil)
    }

    @Test func digitsAreAWholeNumberWithinTheirCount() {
        #expect(TypedNumber.whole("600") == 600 && TypedNumber.whole("0600") == 600)
        #expect(TypedNumber.whole("1234567890", maxDigits: 9) == nil)
    }

    @Test(arguments: ["+5", "-5", "1e2", "1E2", "0x1p-2", "nan", "NaN", "inf", "infinity", ".", "1.2.3", "", " 5", "5%",
                      String(repeating: "9", count: 400)])
    func aDecimalIsDigitsWithOnePoint(_ text: String) {
        #expect(TypedNumber.decimal(text) == nil)
    }

    @Test func digitsWithOnePointAreADecimal() {
        #expect(TypedNumber.decimal("12") == 12 && TypedNumber.decimal("12.5") == 12.5)
        #expect(TypedNumber.decimal(".5") == 0.5 && TypedNumber.decimal("12.") == 12)
    }

    @Test(arguments: [0, 7, 12.5, 0.1, 1e-5, 1.25e-7, 3e21, 1.5e16, 123456.789, -2e-6])
    func aNumberIsWrittenAsTypedAndReadsBackTheSame(_ value: Double) {
        let text = TypedNumber.text(value)
        #expect(!text.contains("e"), "\(text)")
        #expect(Double(text) == value, "\(text)")
        if value >= 0 { #expect(TypedNumber.decimal(text) == value) }
    }
}
