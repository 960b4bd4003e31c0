import Foundation

/// Polls `condition` every 20 ms until it holds. When `timeout` seconds pass first (generous: the
/// machine is shared) it throws `ConditionTimeout` naming what it waited for, so a wait that runs
/// out fails its test instead of going on with stale state. For waiting on another process or
/// thread without a fixed sleep. `what` is read only when the wait runs out, so it may show the
/// last values the condition saw.
public func eventually(
    _ what: @autoclosure () -> String = "", timeout: TimeInterval = 15,
    fileID: String = #fileID, line: Int = #line,
    _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        if Date() >= deadline { break }
        Thread.sleep(forTimeInterval: 0.02)
    }
    if try condition() { return }
    let named = what()
    throw ConditionTimeout(what: named.isEmpty ? "the condition at \(fileID):\(line)" : named, seconds: timeout)
}

/// The same wait from async code: it suspends between polls instead of holding a thread of the
/// cooperative pool.
public func eventually(
    _ what: @autoclosure () -> String = "", timeout: TimeInterval = 15,
    fileID: String = #fileID, line: Int = #line,
    _ condition: () throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        if Date() >= deadline { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    if try condition() { return }
    let named = what()
    throw ConditionTimeout(what: named.isEmpty ? "the condition at \(fileID):\(line)" : named, seconds: timeout)
}

/// A condition `eventually` waited for did not hold in time.
public struct ConditionTimeout: Error, CustomStringConvertible {
    public let what: String
    public let seconds: TimeInterval
    public var description: String { "\(what): did not hold within \(seconds) s" }

    public init(what: String, seconds: TimeInterval) {
        self.what = what
        self.seconds = seconds
    }
}
