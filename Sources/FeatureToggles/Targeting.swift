import Basics

extension Toggles {
    /// Which visitors an experiment takes in, by what the server knows of them on the request
    /// (`VisitorTraits`). Every condition given must hold; one not given holds for everyone. A
    /// visitor outside is not in the experiment: no group, no `experiment.<name>` on their events,
    /// and the rollout or default decides their layout.
    public struct Targeting: Sendable, Equatable {
        /// The device classes taken in; empty: every one.
        public var devices: [DeviceClass]
        /// New or returning visitors only; nil: both.
        public var cohort: VisitorTraits.Cohort?
        /// Primary language subtags (`de`, `fr`) the first `Accept-Language` entry must have; empty: any.
        public var languages: [String]
        /// The visitor's own layout choice: a layout name, or `none` for visitors who made no choice; nil: any.
        public var chosenLayout: String?

        /// What `chosenLayout` says for visitors without a layout cookie.
        public static let noChoice = "none"

        /// Creates targeting; the defaults take in everyone.
        public init(devices: [DeviceClass] = [], cohort: VisitorTraits.Cohort? = nil, languages: [String] = [],
                    chosenLayout: String? = nil) {
            self.devices = devices
            self.cohort = cohort
            self.languages = languages
            self.chosenLayout = chosenLayout
        }

        /// Whether no condition is set (everyone is taken in).
        public var isEmpty: Bool { devices.isEmpty && cohort == nil && languages.isEmpty && chosenLayout == nil }

        /// Whether a visitor with `traits` is taken in.
        public func matches(_ traits: VisitorTraits) -> Bool {
            if !devices.isEmpty && !devices.contains(traits.device) { return false }
            if let cohort, cohort != traits.cohort { return false }
            if !languages.isEmpty { guard let language = traits.language, languages.contains(language) else { return false } }
            if let chosenLayout, chosenLayout != (traits.chosenLayout ?? Self.noChoice) { return false }
            return true
        }
    }

    /// A layer (Tang et al., "Overlapping Experiment Infrastructure", KDD 2010): the experiments
    /// that name one namespace share its hash of the visitor, each taking the visitors whose
    /// position falls in its own range, and the loader refuses ranges that overlap, so they never
    /// share a visitor. Experiments in different namespaces, or in none, overlap independently.
    public struct Namespace: Sendable, Equatable {
        /// The namespace's name: salts the position, so every experiment naming it cuts the same line.
        public var name: String
        /// The range of positions taken, `lower ≤ p < upper`, within [0, 1].
        public var lower: Double
        public var upper: Double

        /// Creates a namespace range.
        public init(name: String, lower: Double, upper: Double) {
            self.name = name
            self.lower = lower
            self.upper = upper
        }

        /// The visitor's position in the namespace, [0, 1).
        public static func position(of visitor: String, in name: String) -> Double {
            StableHash.unitInterval("namespace\u{0}" + name + "\u{0}" + visitor)
        }

        /// Whether `visitor` falls in this range.
        public func contains(_ visitor: String) -> Bool {
            let position = Self.position(of: visitor, in: name)
            return position >= lower && position < upper
        }

        /// Whether two ranges of one namespace share positions.
        public func overlaps(_ other: Namespace) -> Bool {
            name == other.name && lower < other.upper && other.lower < upper
        }
    }
}
