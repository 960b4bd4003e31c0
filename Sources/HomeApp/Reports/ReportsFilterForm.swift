import ScreenKit

/// The filter form of `/reports`: a GET form, so filters live in the URL and work without JS.
enum ReportsFilterForm {
    static func render(_ model: ReportsScreenModel, into writer: inout HTMLWriter) {
        writer.write("<form class=\"reports-filter\" method=\"get\" action=\"/reports\">")
        // Filtering keeps the preset on screen (unless a day is typed, which wins over it).
        if let preset = model.query.preset {
            writer.hiddenField("last", preset.rawValue)
        }
        select("event", "Event", "All events", model.eventNames, model.filter.event, into: &writer)
        select("layout", "Layout", "All layouts", model.layouts, model.filter.layout, into: &writer)
        input("item", "Item", model.filter.item, into: &writer)
        // The events table shows an id's first 8 characters; the filter takes those (VisitorPrefix).
        input("visitor", "Visitor", model.filter.visitor, placeholder: "Id or its first 8", into: &writer)
        ReportRangeFields.render(from: model.query.from, to: model.query.to, range: model.query.range, into: &writer)
        writer.write("""
            <div class="reports-filter__actions"><button class="button button--primary" type="submit">Filter</button>\
            <a class="button button--secondary" href="/reports">Clear</a></div></form>
            """)
    }

    private static func select(_ name: StaticString, _ label: StaticString, _ all: StaticString,
                               _ options: [String], _ selected: String?, into writer: inout HTMLWriter) {
        writer.write("<label class=\"field\"><span class=\"field__label\">")
        writer.write(label)
        writer.write("</span><select")
        writer.attribute("name", "\(name)")
        writer.write("><option value=\"\">")
        writer.write(all)
        writer.write("</option>")
        for option in options { writer.option(option, text: option, selected: option == selected) }
        writer.write("</select></label>")
    }

    private static func input(_ name: StaticString, _ label: StaticString, _ value: String?, placeholder: String? = nil,
                              into writer: inout HTMLWriter) {
        writer.write("<label class=\"field\"><span class=\"field__label\">")
        writer.write(label)
        writer.write("</span><input type=\"search\"")
        writer.attribute("name", "\(name)")
        writer.attribute("value", value ?? "")
        if let placeholder { writer.attribute("placeholder", placeholder) }
        writer.write(" maxlength=\"100\"></label>")
    }
}
