import Foundation
import Testing
import TestSupport

/// `dynamic-home --help` as a newcomer types it, and the README's table of flags beside it.
@Suite struct CommandLineHelpTests {
    /// One flag's entry in the help: its names and the text after them.
    struct Entry {
        let flags: [String]
        let text: String

        /// What "(default: …)" says, up to the first ')', ',' or ';'.
        var defaultValue: String? {
            guard let range = text.range(of: "default: ", options: .backwards) else { return nil }
            return String(text[range.upperBound...].prefix { !")\n,;".contains($0) })
        }
    }

    static func help(_ arguments: [String]) throws -> String {
        let process = try ServerProcess(arguments: arguments, waitForListening: false)
        #expect(process.waitForExit() == 0)
        return process.log
    }

    /// The entries of the OPTIONS section, `--help` left out; an entry's text joins its lines.
    static func entries(_ help: String) -> [Entry] {
        var entries: [Entry] = []
        var current: (flags: [String], text: String)?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("SUBCOMMANDS:") { break }
            if line.hasPrefix("  --") || line.hasPrefix("  -h") {
                if let current { entries.append(Entry(flags: current.flags, text: current.text)) }
                // `--name <value>`, `--a/--b`, or several names: `--database, --report-database <value>`.
                let head = line.dropFirst(2).components(separatedBy: " <").first?.components(separatedBy: "  ").first ?? ""
                let names = head.components(separatedBy: ", ").flatMap { $0.split(separator: "/").map(String.init) }
                current = (names, line.description)
            } else if line.hasPrefix("      "), current != nil {
                current!.text += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        if let current { entries.append(Entry(flags: current.flags, text: current.text)) }
        return entries.filter { !$0.flags.contains("--help") && !$0.flags.contains("-h,") }
    }

    /// The README's "The server's flags" table: each flag of a row with the row's default cell, backticks dropped.
    static func readmeFlags() throws -> [String: String] {
        let readme = try String(contentsOf: ServerProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## The server's flags").dropFirst().first)
        var defaults: [String: String] = [:]
        for row in section.split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") }) where row.hasPrefix("| `--") {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            for flag in cells[0].split(separator: ",") {
                defaults[flag.trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = cells[1].replacingOccurrences(of: "`", with: "")
            }
        }
        return defaults
    }

    @Test func helpWithoutACommandShowsEveryServeFlagWithItsDefault() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let help = try Self.help(arguments)
            let entries = Self.entries(help)
            // Every flag serve takes, each with its default.
            let serve = Self.entries(try Self.help(["serve", "--help"]))
            #expect(entries.map(\.flags) == serve.map(\.flags), "\(arguments): \(help)")
            #expect(entries.count > 25, "\(help)")
            for entry in entries {
                #expect(entry.defaultValue != nil, "\(entry.flags) says no default: \(entry.text)")
            }
            #expect(help.contains("reports"), "the other command is still listed")
        }
    }

    @Test func theReadmeTableHasEveryFlagOfTheHelpWithTheSameDefault() throws {
        let entries = Self.entries(try Self.help(["--help"]))
        let readme = try Self.readmeFlags()
        #expect(Set(readme.keys) == Set(entries.flatMap(\.flags)))
        for entry in entries {
            guard let value = entry.defaultValue else { continue }
            for flag in entry.flags {
                #expect(readme[flag]?.contains(value) == true, "README: \(flag) defaults to \(readme[flag] ?? "nothing"), --help: \(value)")
            }
        }
    }
}
