import Foundation

/// The report log directory as a user reads it: its segments in order, compressed ones through `zcat`.
public enum ReportSegments {
    public static func text(of directory: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".jsonl.gz") }.sorted()
        return try names.map { name in
            guard name.hasSuffix(".gz") else { return try String(contentsOfFile: directory + "/" + name, encoding: .utf8) }
            let zcat = Process()
            zcat.executableURL = URL(fileURLWithPath: "/bin/sh")
            zcat.arguments = ["-c", "zcat \"$0\"", directory + "/" + name]
            let pipe = Pipe()
            zcat.standardOutput = pipe
            try zcat.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            zcat.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }.joined()
    }
}
