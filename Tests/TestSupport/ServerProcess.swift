import Foundation
import Synchronization

/// The real `dynamic-home` executable, started with `--port 0` and stopped by signals.
public final class ServerProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    private let process: Process
    /// Kept open and never read, for `stalledStandardOutput`.
    private let stalled = Pipe()
    private let output = OutputBuffer()
    /// The port it listens on (0 when started without waiting for it).
    public let port: UInt16

    /// The built executable beside the test bundle (`.build/<config>/dynamic-home`).
    public static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [beside, beside.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("dynamic-home")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/dynamic-home")
    }

    /// The shipped stylesheet, scripts and images (`--public`).
    public static var publicFolder: String { repositoryRoot.appendingPathComponent("Public").path }

    /// The repository root, found from this file's path.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts the server; with `waitForListening` it returns once the log names the port.
    /// `environment` adds to (or, with an empty value, sets empty) the inherited variables. With
    /// `stalledStandardOutput`, standard output is a pipe nobody reads (the log is still read from
    /// standard error).
    public init(arguments: [String], workingDirectory: URL? = nil, environment: [String: String] = [:],
                waitForListening: Bool = true, stalledStandardOutput: Bool = false) throws {
        process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory ?? Self.repositoryRoot
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = stalledStandardOutput ? stalled : pipe
        try process.run()
        output.read(from: pipe.fileHandleForReading)
        guard waitForListening else {
            port = 0
            return
        }
        let (process, output) = (process, output)
        try? eventually(timeout: 20) { !process.isRunning || Self.listeningPort(in: output.text) != nil }
        if let port = Self.listeningPort(in: output.text) {
            self.port = port
            return
        }
        port = 0
        throw Failure(description: "dynamic-home did not start listening; it said: \(log)")
    }

    /// Everything the process wrote to standard output and error so far.
    public var log: String { output.text }

    public var client: HTTPClient { HTTPClient(port: port) }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// The resident memory in KiB (`VmRSS` of /proc/PID/status); nil once it has exited.
    public var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// Whether a shared library whose file name starts with `name` is mapped into the process.
    public func maps(library name: String) -> Bool {
        // Read to its end: `String(contentsOfFile:)` stops after the first page of a /proc file.
        let data = FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps")?.readDataToEndOfFile() ?? Data()
        let maps = String(decoding: data, as: UTF8.self)
        return maps.split(separator: "\n").contains { $0.split(separator: "/").last?.hasPrefix(name) == true }
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to end and returns its exit status.
    public func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        let process = process
        var status: Int32?
        let ended = (try? eventually("the process ended", timeout: timeout) {
            if !process.isRunning { status = process.terminationStatus }
            else { status = Self.unreapedExitStatus(process.processIdentifier) }
            return status != nil
        }) != nil
        guard ended else { return nil }
        output.waitForEnd(timeout: 1)  // the pipe's last bytes
        return status
    }

    /// The exit status of a process that has ended and is not yet reaped, read from
    /// /proc/PID/stat (its state `Z` and `exit_code`, the 52nd field, as waitpid gives it); nil
    /// while it runs. Foundation reaps on a shared dispatch queue, which a busy test run can keep
    /// waiting for many seconds after the process is gone.
    public static func unreapedExitStatus(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let name = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: name)...].split(separator: " ")  // from the state, field 3
        guard fields.first == "Z", fields.count >= 50, let code = Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        // As Foundation's `terminationStatus`: the exit code, or the signal that ended it.
        return code & 0x7f == 0 ? (code >> 8) & 0xff : code & 0x7f
    }

    /// Every thread's stack, from gdb when the machine has it, for a test to record when the
    /// process does not end.
    public func stacks() -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "(no gdb to read the stacks)" }
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-p", "\(process.processIdentifier)", "-batch", "-ex", "thread apply all bt 30"]
        let pipe = Pipe()
        (gdb.standardOutput, gdb.standardError) = (pipe, pipe)
        guard (try? gdb.run()) != nil else { return "(gdb did not start)" }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        gdb.waitUntilExit()
        return text
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private static func listeningPort(in log: String) -> UInt16? {
        guard let range = log.range(of: "listening on http://") else { return nil }
        let rest = log[range.upperBound...]
        guard let colon = rest.lastIndex(of: ":", before: rest.firstIndex(of: "/") ?? rest.endIndex) else { return nil }
        return UInt16(rest[rest.index(after: colon)...].prefix { $0.isNumber })
    }
}

/// What the process printed, read until the pipe closes by a thread of its own: tearing down a
/// `FileHandle.readabilityHandler` can crash libdispatch on Linux (swift-corelibs-libdispatch#949).
private final class OutputBuffer: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var ended = false
    }
    private let state = Mutex(State())

    func read(from handle: FileHandle) {
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                state.withLock { $0.bytes += chunk[..<count] }
            }
            state.withLock { $0.ended = true }
        }.start()
    }

    func waitForEnd(timeout: TimeInterval) {
        try? eventually("the pipe ended", timeout: timeout) { state.withLock { $0.ended } }
    }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }
}

extension Substring {
    fileprivate func lastIndex(of character: Character, before end: Index) -> Index? {
        self[startIndex..<end].lastIndex(of: character)
    }
}
