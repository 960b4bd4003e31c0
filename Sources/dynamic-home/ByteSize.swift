import ArgumentParser
import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sizes on the command line: `1048576`, `64MiB`, `10GB`, `512k` (binary units either way).
enum ByteSize {
    static let units: [(String, Int64)] = [
        ("tib", 1 << 40), ("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10),
        ("tb", 1 << 40), ("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10),
        ("t", 1 << 40), ("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10), ("b", 1),
    ]

    static func parse(_ text: String) throws -> Int64 {
        let lower = text.lowercased().trimmingWhitespace()
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            if let number = Double(lower.dropLast(suffix.count)), number >= 0, number * Double(factor) < 9e18 {
                return Int64(number * Double(factor))
            }
        }
        if let bytes = Int64(lower), bytes >= 0 { return bytes }
        throw ValidationError("\"\(text)\" is not a size: give bytes or a number with KiB, MiB, GiB or TiB")
    }

    /// `64MiB` for 67108864: the largest unit that divides the size.
    static func format(_ bytes: Int64) -> String {
        for (name, factor) in [("TiB", Int64(1) << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(name)"
        }
        return "\(bytes) bytes"
    }
}

/// Ages on the command line: `30d`, `12h`, `90m`, `3600s`, `2w`.
enum Age {
    static let units: [(Character, Double)] = [("w", 604_800), ("d", 86400), ("h", 3600), ("m", 60), ("s", 1)]

    static func parse(_ text: String) throws -> TimeInterval {
        guard let unit = text.last.flatMap({ last in units.first { $0.0 == last }?.1 }),
              let number = Double(text.dropLast()), number > 0, number.isFinite
        else {
            throw ValidationError("\"\(text)\" is not an age: give a number with s, m, h, d or w (e.g. 30d)")
        }
        return number * unit
    }

    /// `30d` for 2592000: the largest unit (weeks aside) that divides the age.
    static func format(_ seconds: TimeInterval) -> String {
        for (name, factor) in units where name != "w" && seconds >= factor && seconds.remainder(dividingBy: factor) == 0 {
            return "\(FlagValue.plain(seconds / factor))\(name)"
        }
        return "\(FlagValue.plain(seconds))s"
    }
}
