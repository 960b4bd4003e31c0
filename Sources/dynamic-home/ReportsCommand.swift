import ArgumentParser
import Foundation
import Logging
import Reporting

/// `dynamic-home reports …`: work on a report directory beside serving.
struct ReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports",
        abstract: "Import JSON Lines into a report directory, or check its rollups.",
        subcommands: [Import.self, Check.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take JSON Lines files (an old single-file log, lines from another instance) into the store, rollups built.")

        @Argument(help: "The JSON Lines files.")
        var files: [String]

        @Option(help: "The report directory (created if missing). Not while a server writes it.")
        var reportLog = "reports"

        @Option(parsing: .unconditional, help: "Close a segment at this size, 4KiB to 1GiB.")
        var reportSegmentBytes: FlagValue = "64MiB"

        func run() throws {
            let segmentBytes = try reportSegmentBytes.size("--report-segment-bytes", 4096...(1 << 30))
            let result = try ReportImport.run(files: files, directory: reportLog, segmentBytes: segmentBytes)
            print(result)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recount every segment and compare with its rollup; exits non-zero on a mismatch.")

        @Option(help: "The report directory.")
        var reportLog = "reports"

        func run() throws {
            let (segments, mismatches) = try ReportCheck.run(directory: reportLog)
            for mismatch in mismatches { print("mismatch: \(mismatch)") }
            print("\(segments) segments checked, \(mismatches.count) mismatches")
            if !mismatches.isEmpty { throw ExitCode(1) }
        }
    }
}
