import ArgumentParser
import Foundation
import Reporting

/// Sizes on the command line: `1048576`, `64MiB`, `10GB`, `512k` (binary units either way).
enum ByteSize {
    static let units: [(String, Int64)] = [
        ("tib", 1 << 40), ("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10),
        ("tb", 1 << 40), ("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10),
        ("t", 1 << 40), ("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10), ("b", 1),
    ]

    static func parse(_ text: String) throws -> Int64 {
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            if let number = Double(lower.dropLast(suffix.count)), number >= 0, number * Double(factor) < 9e18 {
                return Int64(number * Double(factor))
            }
        }
        if let bytes = Int64(lower), bytes >= 0 { return bytes }
        throw ValidationError("\"\(text)\" is not a size: give bytes or a number with KiB, MiB, GiB or TiB")
    }

    /// A size or a percentage (`5%`) of the file system.
    static func parseFloor(_ text: String) throws -> ReportLog.FreeSpaceFloor {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), (0...100).contains(percent) else {
                throw ValidationError("\"\(text)\" is not a percentage between 0% and 100%")
            }
            return .fraction(percent / 100)
        }
        return .bytes(try parse(text))
    }
}

/// Ages on the command line: `30d`, `12h`, `90m`, `3600s`, `2w`.
enum Age {
    static func parse(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let number = Double(text.dropLast()), number > 0 else {
            throw ValidationError("\"\(text)\" is not an age: give a number with s, m, h, d or w (e.g. 30d)")
        }
        return number * unit
    }
}
