/// Why the app cannot start; each reads as one line.
public enum AppError: Error, CustomStringConvertible {
    case publicFolder(String)

    public var description: String {
        switch self {
        case .publicFolder(let reason): "--public: \(reason)"
        }
    }
}
