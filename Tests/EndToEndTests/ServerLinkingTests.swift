import Foundation
import Testing
import TestSupport

/// The server is built on FoundationEssentials alone: the whole of Foundation brings
/// CoreFoundation and ICU (33 MB of data) into the executable, and with them pages of code that
/// stay resident however little of them the server uses (docs/performance.md, peak RSS).
@Suite struct ServerLinkingTests {
    /// The libraries the executable names: a build with the shared Swift runtime names Foundation's.
    @Test func theServerNeedsNeitherFoundationNorICUAtRunTime() throws {
        let (status, output) = try Subprocess.run("/usr/bin/readelf", ["--dynamic", ServerProcess.executable.path])
        #expect(status == 0, "\(output)")
        let needed = output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "readelf names no library: \(output)")
        let forbidden = needed.filter {
            $0.contains("[libFoundation.so]") || $0.contains("FoundationInternationalization") || $0.contains("ICU")
        }
        #expect(forbidden.isEmpty, "\(forbidden)")
    }

    /// The symbols the executable holds: a build with the static Swift runtime has Foundation's
    /// within (`$s10Foundation…`), with ICU's data (`icudt…`) and CoreFoundation's start-up.
    @Test func theServerHoldsNeitherFoundationNorICUWithin() throws {
        let (status, output) = try Subprocess.run("/usr/bin/nm", ["--defined-only", ServerProcess.executable.path])
        #expect(status == 0, "nm failed")
        let forbidden = output.split(separator: "\n").compactMap { line -> Substring? in
            guard let name = line.split(separator: " ").last else { return nil }
            return name.hasPrefix("$s10Foundation") || name.hasPrefix("icudt") || name == "__CFInitialize" ? name : nil
        }
        #expect(forbidden.isEmpty, "\(forbidden.prefix(5))")
    }
}
