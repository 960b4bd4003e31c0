#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// The toggles' and catalogue's changes drawn on a server-drawn chart: a dashed line at each
/// change's time with a short key (`T5`, `C3`) above it, and the same keys listed in words under
/// the chart, so the label reaches screen readers and pages without script or hover alike.
enum ChangeMarkers {
    /// `T5` for toggles version 5, `C3` for catalogue version 3.
    static func key(_ change: ConfigChange) -> String {
        (change.kind == "toggles" ? "T" : "C") + (change.version.map(String.init) ?? "")
    }

    /// A line from `top` to `bottom` at each change `x` places on the chart (nil: outside it).
    static func renderLines(_ changes: [ConfigChange], top: Int, bottom: Int, x: (Date) -> Double?,
                            into writer: inout HTMLWriter) {
        for change in changes {
            guard let at = x(change.at) else { continue }
            let position = Int(at.rounded())
            writer.write("<g class=\"chart__marker chart__marker--")
            writer.text(change.kind)
            writer.write("\" data-marker><title>")
            writer.text(change.label)
            writer.write("</title><line")
            writer.attribute("x1", position)
            writer.attribute("y1", top + 12)
            writer.attribute("x2", position)
            writer.attribute("y2", bottom)
            writer.write("/><text class=\"chart__marker-key\"")
            writer.attribute("x", position)
            writer.attribute("y", top + 9)
            writer.write(" text-anchor=\"middle\">")
            writer.text(key(change))
            writer.write("</text></g>")
        }
    }

    /// The changes in words, keyed as on the chart.
    static func renderList(_ changes: [ConfigChange], into writer: inout HTMLWriter) {
        guard !changes.isEmpty else { return }
        writer.write("<ul class=\"chart-changes\" aria-label=\"Changes of the toggles and the catalogue\" data-changes>")
        for change in changes {
            writer.write("<li data-change")
            writer.attribute("data-kind", change.kind)
            if let version = change.version { writer.attribute("data-version", version) }
            writer.write("><span class=\"chart-changes__key chart-changes__key--")
            writer.text(change.kind)
            writer.write("\">")
            writer.text(key(change))
            writer.write("</span> ")
            writer.text(change.label)
            writer.write("</li>")
        }
        writer.write("</ul>")
    }
}
