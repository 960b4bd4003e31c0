/// Why a child could not decode a post; the app answers 400 with the description.
public enum HomeFormError: Error, Equatable, CustomStringConvertible {
    case malformedIndexPath(String)
    case noSuchItem(HomeIndexPath)
    case notLive(HomeIndexPath)
    case unknownLayout(String)
    case noAction

    public var description: String {
        switch self {
        case .malformedIndexPath(let text): "\"\(text)\" is not a position on this screen."
        case .noSuchItem(let path): "There is no item at position \(path) on this screen."
        case .notLive(let path): "The item at position \(path) is not a live stream."
        case .unknownLayout(let name): "There is no layout called \"\(name)\"."
        case .noAction: "The form did not say what to do."
        }
    }
}
