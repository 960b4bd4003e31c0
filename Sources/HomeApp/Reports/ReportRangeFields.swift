#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// The `from` and `to` fields of the report pages' GET forms (`ReportRangeQuery`): a date field
/// for a day; for a bound with a time (a link "since the change") a date-and-time field read as
/// UTC, as a day field would widen the range to the whole day at the next submit.
enum ReportRangeFields {
    /// `from` and `to` as asked, and the range they were read as.
    static func render(from: String?, to: String?, range: ReportRange, into writer: inout HTMLWriter) {
        for (name, label, value, date) in [("from", "From", from, range.from), ("to", "To", to, range.to)] {
            if let value, value.utf8.count != 10, let date {
                let stamp = ReportTimestamp.string(from: date).dropLast()
                let wholeSecond = stamp.hasSuffix(".000")
                writer.write("<label class=\"field field--time\"><span class=\"field__label\">")
                writer.text(label + " (UTC)")
                writer.write("</span><input type=\"datetime-local\"")
                writer.attribute("step", wholeSecond ? "1" : "0.001")
                writer.attribute("value", String(wholeSecond ? stamp.dropLast(4) : stamp))
            } else {
                writer.write("<label class=\"field\"><span class=\"field__label\">")
                writer.text(label + (name == "from" ? " (UTC day)" : " (UTC day, included)"))
                writer.write("</span><input type=\"date\"")
                writer.attribute("value", value.map { String($0.prefix(10)) } ?? "")
            }
            writer.attribute("name", name)
            writer.write("></label>")
        }
    }
}
