/// Where the app finds its files. The command line fills it in; tests point it at their own.
public struct AppConfiguration: Sendable {
    /// The folder served under `/assets/`, holding the default content and toggles.
    public var publicFolder: String

    public init(publicFolder: String) {
        self.publicFolder = publicFolder
    }
}
