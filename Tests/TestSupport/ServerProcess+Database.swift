import Foundation

extension ServerProcess {
    /// Waits until the instance's `feed` says it follows the database: it says so once it has
    /// listened and read where every instance stands, so rows shipped from then on reach it. The
    /// viewing feed runs from the start; the report stream's only while someone watches.
    public func waitUntilFollowingTheDatabase(feed: String = "dynamic-home viewing feed", timeout: TimeInterval = 30) throws {
        try eventually("\(feed) follows the database", timeout: timeout) {
            log.split(separator: "\n").contains { $0.contains("following the report database") && $0.contains("feed=\(feed)") }
        }
    }
}
