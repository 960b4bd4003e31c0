import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ConfigHistory.Entry {
    /// The version as its file holds it: an object of its five fields, the time to the second in
    /// ISO 8601 (`2026-01-31T09:00:00Z`).
    var json: JSONValue {
        .object(["version": .number(Double(version)), "time": .string(time.formatted(.iso8601)), "who": .string(who),
                 "note": .string(note), "text": .string(text)])
    }

    /// The version a file holds; nil if it is not one.
    init?(json: JSONValue) {
        guard let members = json.members, case .number(let number)? = members["version"], let version = Int(exactly: number),
              let time = members["time"]?.string.flatMap({ try? Date($0, strategy: .iso8601) }),
              let who = members["who"]?.string, let note = members["note"]?.string, let text = members["text"]?.string
        else { return nil }
        self.init(version: version, time: time, who: who, note: note, text: text)
    }
}
