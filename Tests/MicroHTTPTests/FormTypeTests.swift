import Testing
@testable import MicroHTTP

/// The body reader and the form checks tell a form's type from the header's bytes, in any case.
@Suite struct FormTypeTests {
    static func type(_ text: String) -> FormType? {
        var copy = text
        return copy.withUTF8 { FormType($0) }
    }

    @Test func bothFormTypesInAnyCaseAndWithParameters() {
        #expect(Self.type("application/x-www-form-urlencoded") == .urlEncoded)
        #expect(Self.type("Application/X-WWW-Form-URLEncoded; charset=UTF-8") == .urlEncoded)
        #expect(Self.type("multipart/form-data; boundary=x") == .multipart)
        #expect(Self.type("MULTIPART/FORM-DATA; boundary=x") == .multipart)
    }

    @Test func nothingElseIsAForm() {
        for text in ["", "application/json", "text/plain", "application/x-www-form", "multipart/mixed", "xapplication/x-www-form-urlencoded"] {
            #expect(Self.type(text) == nil, "\(text)")
        }
        #expect(FormType(nil) == nil)
    }
}
