import Basics
import Reporting
import ScreenKit

/// The notice on `/reports` and the `"setAside"` member of `/reports.json`: segments of the
/// report log that could not be read, moved into its `damaged/` folder and left out of every
/// count and list, so a reader knows the numbers are short.
enum SetAsideNotice {
    /// The most files named on the page; the rest are counted.
    static let listed = 20

    static func render(_ segments: [SetAsideSegment], into writer: inout HTMLWriter) {
        guard !segments.isEmpty else { return }
        writer.write("<section class=\"reports__damaged\" role=\"status\" aria-labelledby=\"damaged-heading\"")
        writer.attribute("data-set-aside", segments.count)
        writer.write("><h2 id=\"damaged-heading\">")
        writer.write(segments.count)
        writer.write(segments.count == 1 ? " damaged segment set aside" : " damaged segments set aside")
        writer.write("""
            </h2><p>These segments of the report log cannot be read. Their events are left out of every \
            count and list here and of the raw log. They were moved into the <code>damaged/</code> folder \
            of the report log directory; <code>dynamic-home reports check</code> lists them, and \
            docs/deployment.md says what to do.</p><ul>
            """)
        for segment in segments.prefix(listed) {
            writer.write("<li")
            writer.attribute("data-set-aside-file", segment.file)
            writer.write("><code>")
            writer.text(segment.file)
            writer.write("</code>: ")
            writer.text(segment.reason)
            if let events = segment.events {
                writer.write(" (")
                writer.write(events)
                writer.write(" events)")
            }
            if segment.released { writer.write(" · released: the shipper skips it") }
            writer.write("</li>")
        }
        if segments.count > listed {
            writer.write("<li>and ")
            writer.write(segments.count - listed)
            writer.write(" more</li>")
        }
        writer.write("</ul></section>")
    }

    /// `"setAside":{"segments":n,"files":[{"file","reason","events","released"}]}`.
    static func jsonMember(_ segments: [SetAsideSegment]) -> String {
        let files = segments.map { segment in
            "{\"file\":\(JSONText.string(segment.file)),\"reason\":\(JSONText.string(segment.reason)),"
                + "\"events\":\(segment.events.map(String.init) ?? "null"),\"released\":\(segment.released)}"
        }
        return "\"setAside\":{\"segments\":\(segments.count),\"files\":[\(files.joined(separator: ","))]}"
    }
}
