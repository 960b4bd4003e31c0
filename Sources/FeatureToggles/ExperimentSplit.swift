import Basics

/// What hashing a visitor into one experiment reads: its salt and its groups' weights, made once
/// per toggles. A request reads these plain values; calling the experiment for the hash copied it,
/// its name, groups and targeting retained and released for every visitor.
struct ExperimentSplit: Sendable {
    /// The hash's state after `experiment␀<name>␀`, where every visitor's position goes on from.
    let salt: UInt64
    /// Where the groups' weights lie, in order, in the table made with the splits.
    let weights: Range<Int>
    /// The weights' sum.
    let total: Double
    /// Whether the experiment looks at the visitor before the hash: an allowlist, a namespace or
    /// targeting (`Toggles.Experiment.groupIndex(for:split:weights:traits:)`).
    let screens: Bool

    /// The split of `experiment`, its weights appended to `table`.
    init(_ experiment: Toggles.Experiment, weights table: inout [Double]) {
        salt = experiment.salt
        let first = table.count
        table.append(contentsOf: experiment.groups.lazy.map(\.weight))
        weights = first..<table.count
        total = Self.total(of: table[weights])
        screens = experiment.hasAllowlist || experiment.namespace != nil || !experiment.targeting.isEmpty
    }

    /// The visitor's group by the hash alone: their position from the salt over their id's digits.
    func group(of visitor: VisitorPlan.Visitor, weights table: [Double]) -> Int {
        let hash = switch visitor {
        case .text(let text): StableHash.mix(StableHash.fnv1a(text, from: salt))
        case .id(let id): StableHash.mix(StableHash.fnv1a(id, from: salt))
        }
        return Self.group(at: Double(hash >> 11) * 0x1p-53, weights: table[weights], total: total)
    }

    /// The group whose span holds `position` in [0, 1), cut into spans as wide as `weights`.
    static func group(at position: Double, weights: some Collection<Double>, total: Double) -> Int {
        var position = position * total
        for (index, weight) in weights.enumerated() {
            if position < weight { return index }
            position -= weight
        }
        return weights.count - 1  // rounding at the top end
    }

    /// The weights' sum, added in order: a visitor's group depends on the exact figure.
    static func total(of weights: some Collection<Double>) -> Double {
        weights.reduce(0, +)
    }
}
