import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; whether it held. For
/// waiting on another process or thread without a fixed sleep.
public func eventually(timeout: TimeInterval = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.02)
    }
}
