import Foundation
import Reporting
import Synchronization

/// The file's lines, split on newlines, without the empty piece after a final newline.
func fileLines(_ path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// A thread-safe collector for values delivered on other threads.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Every line of the store, in order, without newlines.
func storeLines(_ store: ReportStore) -> [String] {
    var text = String(decoding: Array(store.lines().joined()), as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// An event at `ms` epoch milliseconds.
func event(_ name: ReportEvent.Name = .launch, at ms: Int64, layout: String? = "grid", item: String? = nil,
           visitor: String? = nil, properties: [String: String] = [:]) -> ReportEvent {
    ReportEvent(name, timestamp: ReportTimestamp.date(milliseconds: ms), layout: layout, item: item, visitor: visitor, properties: properties)
}

/// Files in a directory, sorted.
func listing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// 2026-11-21T00:00:00Z in epoch milliseconds.
let dayStart = ReportTimestamp.milliseconds(ReportTimestamp.parse("2026-11-21T00:00:00Z")!)
