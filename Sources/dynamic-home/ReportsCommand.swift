import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Reporting

/// `dynamic-home reports …`: work on a report directory beside serving.
struct ReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports",
        abstract: "Import JSON Lines into a report directory, or check its segments and rollups.",
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
            abstract: "Read every segment whole and compare it with its rollup; name every problem, exit non-zero on any.")

        @Option(help: "The report directory.")
        var reportLog = "reports"

        @Flag(help: """
            Move damaged segments into damaged/ and release every segment there: the report shipper \
            then skips them (logging what it could not ship). Stop the server first.
            """)
        var setAside = false

        func run() throws {
            let report = try ReportCheck.run(directory: reportLog, setAside: setAside)
            for problem in report.problems { print(problem) }
            for segment in report.setAside {
                print("set aside: \(segment.file) is in \(DamagedSegments.folderName)/ and released; the report shipper skips it")
            }
            print("\(report.segments) segments checked, \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")")
            if !report.problems.isEmpty { throw ExitCode(1) }
        }
    }
}
