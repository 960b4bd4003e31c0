import Basics

/// A form drawn from an older version, brought onto the version in force: what the form changed
/// against the version it was drawn from, applied to the one in force. Where both changed the same
/// value the form's wins (it is the one being reviewed); lists of the same length (experiments,
/// groups) merge item by item, so an edit of one group keeps another's change elsewhere.
enum JSONMerge {
    static func merge(base: JSONValue, mine: JSONValue, theirs: JSONValue) -> JSONValue {
        if mine == base { return theirs }
        if theirs == base { return mine }
        switch (base, mine, theirs) {
        case (.object(let b), .object(let m), .object(let t)):
            var merged: [String: JSONValue] = [:]
            for key in Set(b.keys).union(m.keys).union(t.keys) {
                switch (b[key], m[key], t[key]) {
                case (let old?, let new?, let now?): merged[key] = merge(base: old, mine: new, theirs: now)
                case (let old, let new, let now):
                    // Added or removed on one side: the side that changed it decides.
                    if let value = new == old ? now : new { merged[key] = value }
                }
            }
            return .object(merged)
        case (.array(let b), .array(let m), .array(let t)) where b.count == m.count && b.count == t.count:
            return .array(b.indices.map { merge(base: b[$0], mine: m[$0], theirs: t[$0]) })
        default:
            return mine
        }
    }
}
