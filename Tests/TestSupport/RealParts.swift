import Foundation

/// Whether a suite that needs real parts (PostgreSQL, nginx, promtool) runs. A developer's plain
/// `swift test` skips it when a part is not installed; the README's test command sets
/// `DYNAMIC_HOME_REAL_PARTS=required`, so there a missing part fails the run instead of hiding it.
public enum RealParts {
    public static var required: Bool { ProcessInfo.processInfo.environment["DYNAMIC_HOME_REAL_PARTS"] == "required" }
}
