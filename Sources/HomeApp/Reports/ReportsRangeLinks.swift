import ScreenKit

/// The presets of `/reports` (last hour … everything) as links that keep the filters; the one
/// shown is marked current.
enum ReportsRangeLinks {
    static func render(_ query: ReportsQuery, into writer: inout HTMLWriter) {
        writer.write("<nav class=\"reports__ranges\" aria-label=\"Time range\"><ul>")
        let current = query.preset ?? (query.from == nil && query.to == nil ? .all : nil)
        for preset in ReportsPreset.allCases {
            writer.write("<li><a")
            let filters = query.filterQuery
            writer.urlAttribute("href", "/reports?last=\(preset.rawValue)" + (filters.isEmpty ? "" : "&" + filters))
            if preset == current { writer.write(" aria-current=\"page\"") }
            writer.write(">")
            writer.text(preset.label)
            writer.write("</a></li>")
        }
        writer.write("</ul></nav>")
    }
}
