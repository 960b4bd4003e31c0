/// Why the app cannot start; each reads as one line.
public enum AppError: Error, CustomStringConvertible {
    case publicFolder(String)
    case content(String)
    case toggles(String)
    /// A `--secret` or `--report-token` too short to resist guessing.
    case tooShort(option: String, bytes: Int)
    case reportLog(String)

    public var description: String {
        switch self {
        case .publicFolder(let reason): "--public: \(reason)"
        case .content(let reason): "--content: \(reason)"
        case .toggles(let reason): "--toggles: \(reason)"
        case .tooShort(let option, let bytes):
            "\(option) must be at least \(AppConfiguration.minimumSecretBytes) bytes, and this one has \(bytes): "
                + "a short one can be guessed or computed offline"
        case .reportLog(let reason): "--report-log: \(reason)"
        }
    }
}
