/// The segment a visitor is counted in, from the `device` and `cohort` properties of their first
/// event carrying the experiment (their exposure); a missing or unknown value is `unknown`.
/// Packed in one byte: device × 3 + cohort.
public struct VisitorSegment: Sendable, Hashable {
    public enum Device: UInt8, Sendable, CaseIterable {
        case unknown = 0, phone, tablet, desktop
        public var name: String { ["unknown", "phone", "tablet", "desktop"][Int(rawValue)] }
    }

    public enum Cohort: UInt8, Sendable, CaseIterable {
        case unknown = 0, new, returning
        public var name: String { ["unknown", "new", "returning"][Int(rawValue)] }
    }

    public var device: Device
    public var cohort: Cohort

    /// Every combination: the cells an experiment's sums are kept in.
    public static let count = Device.allCases.count * Cohort.allCases.count

    public init(device: Device = .unknown, cohort: Cohort = .unknown) {
        self.device = device
        self.cohort = cohort
    }

    /// The segment the values of `device` and `cohort` name.
    public init(device: String?, cohort: String?) {
        self.device = switch device {
        case "phone": .phone
        case "tablet": .tablet
        case "desktop": .desktop
        default: .unknown
        }
        self.cohort = switch cohort {
        case "new": .new
        case "returning": .returning
        default: .unknown
        }
    }

    public var index: Int { Int(device.rawValue) * Cohort.allCases.count + Int(cohort.rawValue) }

    public init(index: Int) {
        device = Device(rawValue: UInt8(index / Cohort.allCases.count)) ?? .unknown
        cohort = Cohort(rawValue: UInt8(index % Cohort.allCases.count)) ?? .unknown
    }
}

/// Which visitors a result is read for: all, or those of one device or one cohort.
public enum VisitorSegmentFilter: Sendable, Hashable {
    case all
    case device(VisitorSegment.Device)
    case cohort(VisitorSegment.Cohort)

    /// The values of `?segment=`, in the order a form lists them.
    public static let choices: [VisitorSegmentFilter] = [.all] + VisitorSegment.Device.allCases.dropFirst().map { .device($0) }
        + [.device(.unknown)] + VisitorSegment.Cohort.allCases.dropFirst().map { .cohort($0) } + [.cohort(.unknown)]

    /// `all`, `phone`, `tablet`, `desktop`, `unknown-device`, `new`, `returning`, `unknown-cohort`.
    public var name: String {
        switch self {
        case .all: "all"
        case .device(.unknown): "unknown-device"
        case .device(let device): device.name
        case .cohort(.unknown): "unknown-cohort"
        case .cohort(let cohort): cohort.name
        }
    }

    public init?(name: String) {
        guard let found = Self.choices.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    public func contains(_ segment: VisitorSegment) -> Bool {
        switch self {
        case .all: true
        case .device(let device): segment.device == device
        case .cohort(let cohort): segment.cohort == cohort
        }
    }
}
