import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP

/// The note every change needs: what the history says of why.
enum AdminNote {
    /// The longest note kept (the forms say so with `maxlength`).
    static let maxLength = 500

    /// The posted note, trimmed; empty when missing. Longer than `maxLength`: 400, nothing applied.
    static func from(_ form: FormFields) throws(HTTPError) -> String {
        let note = (form["note"] ?? "").trimmingWhitespaceAndNewlines()
        guard note.count <= maxLength else {
            throw HTTPError(.badRequest, "The note is \(note.count) characters long; at most \(maxLength) are kept. Nothing was applied.")
        }
        return note
    }
}
