#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A change to a reloaded file that was refused: why, and when. Kept until the file loads again,
/// so a page can say what the server is not taking and since when.
public struct ReloadRejection: Sendable, Equatable {
    /// The error, as logged: names the file, and the field or the line and column.
    public let message: String
    /// When the reload was refused.
    public let time: Date

    public init(message: String, time: Date) {
        self.message = message
        self.time = time
    }
}
