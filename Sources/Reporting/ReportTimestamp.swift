import Foundation

/// Fast `YYYY-MM-DDTHH:MM:SS.mmmZ` formatting and parsing from epoch milliseconds, without DateFormatter.
public enum ReportTimestamp {
    static let msPerDay: Int64 = 86_400_000
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the range the four-digit year can show.
    static let minMilliseconds: Int64 = -62_167_219_200_000
    static let maxMilliseconds: Int64 = 253_402_300_799_999

    /// Milliseconds since 1970 for `date`, rounded to the nearest and clamped to years 0000…9999.
    public static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard ms.isFinite else { return ms > 0 ? maxMilliseconds : minMilliseconds }
        if ms <= Double(minMilliseconds) { return minMilliseconds }
        if ms >= Double(maxMilliseconds) { return maxMilliseconds }
        return Int64(ms)
    }

    /// The date for a count of milliseconds since 1970.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Formats `date` as e.g. `2026-11-21T12:00:00.123Z`.
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(milliseconds(date), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the 24 bytes of the timestamp for `ms` (already clamped) to `buffer`: written on
    /// the stack and appended at once, since every report line starts with one.
    static func append(_ ms: Int64, to buffer: inout [UInt8]) {
        let days = floorDiv(ms, msPerDay)
        let msOfDay = Int(ms - days * msPerDay)
        let (year, month, day) = civil(fromDays: days)
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { text in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    text[index] = UInt8(48 + rest % 10)
                    rest /= 10
                }
            }
            put(Int(year), 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(msOfDay / 3_600_000, 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(msOfDay / 60_000 % 60, 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(msOfDay / 1000 % 60, 2, at: 17)
            text[19] = UInt8(ascii: ".")
            put(msOfDay % 1000, 3, at: 20)
            text[23] = UInt8(ascii: "Z")
        }
        withUnsafeBytes(of: &text) { buffer.append(contentsOf: $0) }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC only); nil if malformed.
    public static func parse(_ string: String) -> Date? {
        var copy = string
        return copy.withUTF8 { parseMilliseconds($0) }.map { date(milliseconds: $0) }
    }

    /// Parses the timestamp bytes into epoch milliseconds; nil if malformed or out of range.
    static func parseMilliseconds(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard s.count == 20 || s.count == 24 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(s[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func at(_ index: Int, _ char: Unicode.Scalar) -> Bool { s[index] == UInt8(ascii: char) }
        guard at(4, "-"), at(7, "-"), at(10, "T"), at(13, ":"), at(16, ":"), at(s.count - 1, "Z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var millis = 0
        if s.count == 24 {
            guard at(19, "."), let fraction = number(20, 3) else { return nil }
            millis = fraction
        }
        let days = daysFromCivil(year: Int64(year), month: month, day: day)
        return days * msPerDay + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millis)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's civil_from_days: proleptic Gregorian date for days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Howard Hinnant's days_from_civil, the inverse of `civil(fromDays:)`.
    static func daysFromCivil(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
