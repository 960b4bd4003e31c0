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
    /// outside it). A change whose key would overlap the label before it joins that label: two
    /// keys read `T2,T3`, more the first and how many follow (`T2 +15`); the list under the chart
    /// names them all. A label near an edge is drawn inward of its line, not cut.
    /// The keys' extents, for the chart's own labels to keep clear of.
    @discardableResult
    static func renderLines(_ changes: [ConfigChange], top: Int, bottom: Int, width: Int, x: (Date) -> Double?,
                            into writer: inout HTMLWriter) -> [ClosedRange<Int>] {
        var keys: [ClosedRange<Int>] = []
        let placed = changes.compactMap { change in x(change.at).map { (change: change, at: Int($0.rounded())) } }
            .sorted { $0.at < $1.at }
        for group in groups(placed, width: width) {
            let label = label(placed[group])
            for index in group {
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
                if index == group.lowerBound {
                    let span = extent(label, at: position, width: width)
                    keys.append(span)
                    writer.write("<text class=\"chart__marker-key\"")
                    writer.attribute("x", position)
                    writer.attribute("y", top + 9)
                    writer.attribute("text-anchor", span.lowerBound == position ? "start" : span.upperBound == position ? "end" : "middle")
                    writer.write(">")
                    writer.text(label)
                    writer.write("</text>")
                }
                writer.write("</g>")
            }
        }
        return keys
    }

    /// The changes cut into runs that share a label, no label overlapping the next: each run
    /// first takes the changes whose keys would overlap its label, then neighbouring runs whose
    /// labels still overlap (a label grows with its count, an edge turns it inward) are joined.
    static func groups(_ placed: [(change: ConfigChange, at: Int)], width: Int) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var first = 0
        while first < placed.count {
            var end = first + 1
            while end < placed.count,
                  extent(key(placed[end].change), at: placed[end].at, width: width).lowerBound
                    < extent(label(placed[first..<end]), at: placed[first].at, width: width).upperBound + gap {
                end += 1
            }
            groups.append(first..<end)
            first = end
        }
        var index = 0
        while index + 1 < groups.count {
            let left = extent(label(placed[groups[index]]), at: placed[groups[index].lowerBound].at, width: width)
            let right = extent(label(placed[groups[index + 1]]), at: placed[groups[index + 1].lowerBound].at, width: width)
            if right.lowerBound < left.upperBound + gap {
                groups[index] = groups[index].lowerBound..<groups[index + 1].upperBound
                groups.remove(at: index + 1)
                index = max(0, index - 1)  // the wider label may now meet the one before
            } else {
                index += 1
            }
        }
        return groups
    }

    /// Pixels kept between two labels.
    private static let gap = 4

    /// About 6 pixels a character at the keys' 10 px bold.
    private static func halfWidth(of label: String) -> Int { 3 * label.count }

    private static func label(_ group: ArraySlice<(change: ConfigChange, at: Int)>) -> String {
        guard let head = group.first else { return "" }
        if group.count <= 2 { return group.map { key($0.change) }.joined(separator: ",") }
        return key(head.change) + " +" + String(group.count - 1)
    }

    /// Where a label at `position` is drawn: a key centred on its line, a shared label rightward
    /// from its first line (it grows away from the labels before it), and inward at an edge.
    static func extent(_ label: String, at position: Int, width: Int) -> ClosedRange<Int> {
        let half = halfWidth(of: label)
        let shared = label.contains(",") || label.contains("+")
        if position + 2 * half > width, shared || position + half > width { return (position - 2 * half)...position }
        if shared || position - half < 0 { return position...(position + 2 * half) }
        return (position - half)...(position + half)
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
