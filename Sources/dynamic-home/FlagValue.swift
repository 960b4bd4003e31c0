import ArgumentParser
import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// A flag's value as typed. Numbers, sizes and ages are taken as text, parsed unconditionally (so
/// `--port -1` gives `-1` to the port instead of reading it as a flag), and checked where the
/// command runs, with a message that names the flag, what it allows and what it got.
struct FlagValue: ExpressibleByArgument, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, Sendable {
    let text: String

    init(argument: String) { text = argument }
    init(stringLiteral value: String) { text = value }
    init(integerLiteral value: Int) { text = String(value) }

    var defaultValueDescription: String { text }

    /// The value as the message quotes it: cut and with control characters escaped.
    var shown: String { text.isEmpty ? "nothing" : LogLineSanitizer.clean(text, maximumBytes: 60) }

    /// A whole number in `range`.
    func whole(_ flag: String, _ range: ClosedRange<Int>, unit: String = "") throws -> Int {
        guard let number = Int(text.trimmingWhitespace()), range.contains(number) else {
            throw ValidationError("\(flag) must be a whole number between \(range.lowerBound) and \(range.upperBound)\(unit), not \(shown)")
        }
        return number
    }

    /// A finite number in `range`.
    func number(_ flag: String, _ range: ClosedRange<Double>, meaning: String = "") throws -> Double {
        guard let number = Double(text.trimmingWhitespace()), number.isFinite, range.contains(number) else {
            throw ValidationError("\(flag) must be a number between \(Self.plain(range.lowerBound)) and \(Self.plain(range.upperBound))\(meaning), not \(shown)")
        }
        return number
    }

    /// A size in bytes (`64MiB`, `512k`, `1048576`) in `range`.
    func size(_ flag: String, _ range: ClosedRange<Int64>, minimum: String? = nil) throws -> Int64 {
        guard let bytes = try? ByteSize.parse(text), range.contains(bytes) else {
            let allowed = range.upperBound == .max ? "of at least \(minimum ?? ByteSize.format(range.lowerBound))"
                : "between \(ByteSize.format(range.lowerBound)) and \(ByteSize.format(range.upperBound))"
            throw ValidationError("\(flag) must be a size \(allowed), like 64MiB, not \(shown)")
        }
        return bytes
    }

    /// An age (`30d`, `12h`) in `range`, in seconds.
    func age(_ flag: String, _ range: ClosedRange<TimeInterval>) throws -> TimeInterval {
        guard let seconds = try? Age.parse(text), range.contains(seconds) else {
            throw ValidationError("\(flag) must be an age between \(Age.format(range.lowerBound)) and \(Age.format(range.upperBound)) "
                                  + "(a number with s, m, h, d or w, like 30d), not \(shown)")
        }
        return seconds
    }

    /// A size, or a percentage of the file system below 100%.
    func floor(_ flag: String) throws -> ReportLog.FreeSpaceFloor {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent.isFinite, percent >= 0, percent < 100 else {
                throw ValidationError("\(flag) must be a size (like 2GiB) or a percentage from 0% to below 100%, not \(shown)")
            }
            return .fraction(percent / 100)
        }
        guard let bytes = try? ByteSize.parse(text) else {
            throw ValidationError("\(flag) must be a size (like 2GiB) or a percentage from 0% to below 100%, not \(shown)")
        }
        return .bytes(bytes)
    }

    /// `5` rather than `5.0`.
    static func plain(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
