import ArgumentParser
import Glibc

/// The executable: serving by default, and the report directory's tools beside it. Serving is a
/// subcommand of its own so that its options never capture a subcommand's (`--report-log`).
@main
struct DynamicHome: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamic-home",
        abstract: "Serves the DynamicHomeScreen home screen as HTML.",
        subcommands: [ServeCommand.self, ReportsCommand.self],
        defaultSubcommand: ServeCommand.self)

    /// Errors end the program with one line on standard error, never a trace or the usage text.
    static func main() {
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
            Glibc.exit(exitCode(for: error).rawValue)
        }
    }
}
