#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fast `YYYY-MM-DDTHH:MM:SS.mmmZ` formatting and parsing from epoch milliseconds, without DateFormatter.
public enum ReportTimestamp {
    public static let msPerDay: Int64 = 86_400_000
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the range the four-digit year can show.
    static let minMilliseconds: Int64 = -62_167_219_200_000
    static let maxMilliseconds: Int64 = 253_402_300_799_999

    /// Milliseconds since 1970 for `date`, rounded to the nearest and clamped to years 0000…9999.
    public static func milliseconds(_ date: Date) -> Int64 {
        let exact = date.timeIntervalSince1970 * 1000
        // Within the years 0000…9999 the double's whole part is exact: rounding half away from zero
        // is a truncation and a look at the part it cut (`rounded()` was a call into libm).
        if exact > Double(minMilliseconds), exact < Double(maxMilliseconds) {
            let whole = Int64(exact)
            let cut = exact - Double(whole)
            return cut >= 0.5 ? whole + 1 : cut <= -0.5 ? whole - 1 : whole
        }
        let ms = exact.rounded()
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
        String(unsafeUninitializedCapacity: 24) { write(milliseconds(date), to: $0.baseAddress!) }
    }

    /// Writes the 24 bytes of the timestamp for `ms` (already clamped) at `out`; returns 24.
    static func write(_ ms: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let days = floorDiv(ms, msPerDay)
        let (year, month, day) = civil(fromDays: days)
        // Unsigned 32-bit from here on: each division by a constant is then a multiply and a shift.
        let msOfDay = UInt32(ms - days * msPerDay)
        let seconds = msOfDay / 1000
        // Writes `value`, below 100, as two digits.
        func put(_ value: UInt32, at offset: Int) {
            out[offset] = UInt8(truncatingIfNeeded: 48 + value / 10)
            out[offset + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
        }
        put(UInt32(year) / 100, at: 0)
        put(UInt32(year) % 100, at: 2)
        out[4] = UInt8(ascii: "-")
        put(UInt32(month), at: 5)
        out[7] = UInt8(ascii: "-")
        put(UInt32(day), at: 8)
        out[10] = UInt8(ascii: "T")
        put(seconds / 3600, at: 11)
        out[13] = UInt8(ascii: ":")
        put(seconds / 60 % 60, at: 14)
        out[16] = UInt8(ascii: ":")
        put(seconds % 60, at: 17)
        out[19] = UInt8(ascii: ".")
        out[20] = UInt8(truncatingIfNeeded: 48 + msOfDay % 1000 / 100)
        put(msOfDay % 100, at: 21)
        out[23] = UInt8(ascii: "Z")
        return 24
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
        // Within an era all is small and positive: unsigned 32-bit divisions by constants are cheapest.
        let doe = UInt32(z - era * 146_097)
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int64(yoe) + era * 400 + (month <= 2 ? 1 : 0), month, day)
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

    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
