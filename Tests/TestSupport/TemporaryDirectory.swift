import Foundation

/// A fresh folder `<prefix>-<UUID>` in the system temporary directory, removed with all it holds by
/// `remove()` or at the latest when released, so a test that fails or throws, or a fixture whose
/// init throws halfway, leaves nothing behind. Hold it while anything writes into it: a suite's
/// stored property lives until its test is over, but a local may be released after its last use,
/// so a local gets `defer { directory.remove() }`.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to the file `name` in the folder; its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }
}
