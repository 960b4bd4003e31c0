/// The difference between two texts, line by line: the lines kept, removed and added, in order
/// (a longest common subsequence). Texts too long for that table are shown as one replacement.
struct LineDiff: Sendable, Equatable {
    enum Line: Sendable, Equatable {
        case kept(String)
        case removed(String)
        case added(String)
    }

    /// Lines compared at most (old × new): beyond, the diff is "all removed, all added".
    static let tableLimit = 4_000_000
    let lines: [Line]

    init(from old: String, to new: String) {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Common head and tail first: a one-field change in a long file stays cheap.
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let middleA = Array(a[head..<(a.count - tail)]), middleB = Array(b[head..<(b.count - tail)])
        lines = a[..<head].map(Line.kept) + Self.middle(middleA, middleB) + a[(a.count - tail)...].map(Line.kept)
    }

    /// Whether anything changed.
    var isEmpty: Bool { !lines.contains { if case .kept = $0 { false } else { true } } }

    /// The changed lines with `context` kept lines around each change; nil marks a gap.
    func hunks(context: Int = 2) -> [Line?] {
        let changed = lines.indices.filter { if case .kept = lines[$0] { false } else { true } }
        var shown = Set<Int>()
        for index in changed { for near in max(0, index - context)...min(lines.count - 1, index + context) { shown.insert(near) } }
        var result: [Line?] = []
        var last = -1
        for index in shown.sorted() {
            if last >= 0, index > last + 1 { result.append(nil) }
            result.append(lines[index])
            last = index
        }
        return result
    }

    private static func middle(_ a: [String], _ b: [String]) -> [Line] {
        guard !a.isEmpty || !b.isEmpty else { return [] }
        guard a.count * b.count <= tableLimit, !a.isEmpty, !b.isEmpty else { return a.map(Line.removed) + b.map(Line.added) }
        // lengths[i][j]: the longest common subsequence of a[i...] and b[j...].
        var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [Line] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                result.append(.kept(a[i])); i += 1; j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                result.append(.removed(a[i])); i += 1
            } else {
                result.append(.added(b[j])); j += 1
            }
        }
        return result + a[i...].map(Line.removed) + b[j...].map(Line.added)
    }
}
