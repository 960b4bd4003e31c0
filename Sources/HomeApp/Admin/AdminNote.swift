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

    /// The posted note, trimmed; empty when missing. Longer than `maxLength`, or with an invisible
    /// control (the history and `/admin` show the note as it is, where a direction override would
    /// turn the rest of the line around): 400, nothing applied.
    static func from(_ form: FormFields) throws(HTTPError) -> String {
        let note = (form["note"] ?? "").trimmingWhitespaceAndNewlines()
        guard note.count <= maxLength else {
            throw HTTPError(.badRequest, "The note is \(note.count) characters long; at most \(maxLength) are kept. Nothing was applied.")
        }
        if let control = note.unicodeScalars.first(where: \.isInvisibleControl) {
            let code = String(printf: "U+%04X", control.value)
            throw HTTPError(.badRequest, "The note holds an invisible character (\(code)) that would break the line or turn "
                            + "the text around it; write the note without it. Nothing was applied.")
        }
        return note
    }
}
