import ArgumentParser
import Glibc
import HomeApp

/// The executable: serving by default, and the report directory's tools beside it. Serving is a
/// subcommand of its own so that its options never capture a subcommand's (`--report-log`).
@main
struct DynamicHome: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamic-home",
        abstract: "Serves the DynamicHomeScreen home screen as HTML.",
        usage: "dynamic-home [serve] [<options>]\ndynamic-home reports <subcommand>",
        subcommands: [ServeCommand.self, ReportsCommand.self],
        defaultSubcommand: ServeCommand.self)

    /// Errors end the program with one line on standard error, never a trace or the usage text.
    static func main() {
        if ["-h", "--help", "help"].contains(CommandLine.arguments.dropFirst().first ?? ""), CommandLine.arguments.count == 2 {
            print(helpWithServeOptions())
            return
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            // A bare exit code (`reports check` finding problems it printed already) has no message.
            let text = message(for: error)
            if !text.isEmpty {
                let line = Array("dynamic-home: \(text)\n".utf8)
                _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
            Glibc.exit(status(for: error))
        }
    }

    /// A `--secret` or report token too short is a bad value like one out of its range: 64 (EX_USAGE).
    static func status(for error: Error) -> Int32 {
        if case .tooShort? = error as? AppError { return ExitCode.validationFailure.rawValue }
        return exitCode(for: error).rawValue
    }

    /// The root's help with the default command's options in it: typed without a command, the
    /// flags are serve's, so `--help` shows them (argument-parser would list only the commands).
    static func helpWithServeOptions() -> String {
        let root = helpMessage()
        let serve = helpMessage(for: ServeCommand.self)
        guard let rootOptions = root.firstRange(of: "OPTIONS:"), let subcommands = root.firstRange(of: "SUBCOMMANDS:"),
              let serveOptions = serve.firstRange(of: "OPTIONS:")
        else { return root }
        return String(root[..<rootOptions.lowerBound]) + "OPTIONS (of serve, the default command):"
            + serve[serveOptions.upperBound...].trimmingSuffix { $0 == "\n" } + "\n\n" + root[subcommands.lowerBound...]
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[..<end]
    }
}
