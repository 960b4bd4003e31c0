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

    /// A line from `top` to `bottom` at each change `x` places on a chart `width` wide (nil:
    /// outside it). Keys that would overlap share one label at the first's place (`T2,T3`), and a
    /// label near an edge is drawn inward of its line, not cut.
    static func renderLines(_ changes: [ConfigChange], top: Int, bottom: Int, width: Int, x: (Date) -> Double?,
                            into writer: inout HTMLWriter) {
        let placed = changes.compactMap { change in x(change.at).map { (change: change, at: Int($0.rounded())) } }
            .sorted { $0.at < $1.at }
        var first = 0
        while first < placed.count {
            var end = first + 1
            while end < placed.count, placed[end].at - placed[first].at < apart { end += 1 }
            let label = placed[first..<end].map { key($0.change) }.joined(separator: ",")
            for index in first..<end {
                let (change, position) = placed[index]
                writer.write("<g class=\"chart__marker chart__marker--")
                writer.text(change.kind)
                writer.write("\" data-marker><title>")
                writer.text(change.label)
                writer.write("</title><line")
                writer.attribute("x1", position)
                writer.attribute("y1", top + 12)
                writer.attribute("x2", position)
                writer.attribute("y2", bottom)
                writer.write("/>")
                if index == first { renderLabel(label, at: position, y: top + 9, width: width, into: &writer) }
                writer.write("</g>")
            }
            first = end
        }
    }

    /// Pixels between two lines under which their keys would overlap (a key is about 12 wide).
    private static let apart = 18

    private static func renderLabel(_ label: String, at position: Int, y: Int, width: Int, into writer: inout HTMLWriter) {
        // About 6 pixels a character at the keys' 10 px bold.
        let half = 3 * label.count
        let anchor = position - half < 0 ? "start" : position + half > width ? "end" : "middle"
        writer.write("<text class=\"chart__marker-key\"")
        writer.attribute("x", position)
        writer.attribute("y", y)
        writer.attribute("text-anchor", anchor)
        writer.write(">")
        writer.text(label)
        writer.write("</text>")
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
