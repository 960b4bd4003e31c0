/// Why the app cannot start; each reads as one line.
public enum AppError: Error, CustomStringConvertible {
    case publicFolder(String)
    case content(String)
    case toggles(String)
    case reportLog(String)

    public var description: String {
        switch self {
        case .publicFolder(let reason): "--public: \(reason)"
        case .content(let reason): "--content: \(reason)"
        case .toggles(let reason): "--toggles: \(reason)"
        case .reportLog(let reason): "--report-log: \(reason)"
        }
    }
}
