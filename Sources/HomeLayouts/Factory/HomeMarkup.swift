import ScreenKit

/// Markup every home layout shares: the form around it, its toolbar, headings and empty state;
/// public so that a layout written outside this module draws the same form.
public enum HomeMarkup {
    /// Opens the child's form (or nothing for a preview).
    public static func openForm(_ model: BaseHomeViewModel, into writer: inout HTMLWriter, context: RenderContext) {
        guard !model.isPreview else { return }
        writer.write("<form class=\"home-form\" method=\"post\"")
        writer.urlAttribute("action", model.formAction)
        writer.write(">")
        writer.csrfField(context)
        writer.hiddenField("layout", model.layout)
        for field in model.hiddenFields {
            writer.hiddenField(field.name, field.value)
        }
    }

    public static func closeForm(_ model: BaseHomeViewModel, into writer: inout HTMLWriter) {
        if !model.isPreview { writer.write("</form>") }
    }

    /// The switch and settings buttons, the heading if there is one, then the visitor's rows.
    public static func toolbar(_ model: BaseHomeViewModel, into writer: inout HTMLWriter) {
        guard !model.isPreview else { return }
        writer.write("<div class=\"home-toolbar\">")
        if let heading = model.heading {
            writer.write("<h2 class=\"home-toolbar__heading\">")
            writer.text(heading)
            writer.write("</h2>")
        }
        writer.write("<div class=\"home-toolbar__actions\">")
        if let alternative = model.alternative {
            writer.write("<button class=\"button button--secondary\" type=\"submit\" name=\"replace\" data-swap")
            writer.attribute("value", alternative.layout)
            writer.write(">")
            writer.text(alternative.title)
            writer.write("</button>")
        }
        writer.write("<button class=\"button button--secondary\" type=\"submit\" name=\"settings\" value=\"open\">Settings</button></div></div>")
        rows(model, into: &writer)
    }

    /// The visitor's rows (Continue watching, My List) under the toolbar, in every layout: a strip
    /// of posters that link to their titles, with a progress bar where the visitor stopped.
    /// Nothing at all when there are none, so such a page is the one every visitor gets.
    /// The place where the rows begin is marked: a cached page drawn with the shared rows alone
    /// (Trending now) takes a visitor's own rows there, and is then the page drawn with them.
    public static func rows(_ model: BaseHomeViewModel, into writer: inout HTMLWriter) {
        writer.markSlot()
        rows(model.rows.filter { !$0.isShared }, layout: model.layout, into: &writer)
        draw(model.rows.filter(\.isShared), layout: model.layout, into: &writer)
    }

    /// The lengths the visitor's own rows are padded to (with spaces after them): a cached page's
    /// brotli form takes an insert of one fixed length at its slot, one form per length. Steps
    /// of a half and a third, so padding adds at most half the rows' length; rows longer than
    /// the last are not padded.
    public static let rowsCapacities: [Int] = (10...16).flatMap { [1 << $0, 3 << ($0 - 1)] }.filter { $0 <= 1 << 16 }

    /// The length rows of `count` bytes are padded to: the least capacity that holds them.
    public static func rowsCapacity(for count: Int) -> Int? { rowsCapacities.first { $0 >= count } }

    /// The visitor's own `rows` as a layout named `layout` draws them, padded to a capacity:
    /// the bytes a cached page takes at its slot.
    public static func rows(_ rows: [HomeRow], layout: String, into writer: inout HTMLWriter) {
        let start = writer.byteCount
        draw(rows, layout: layout, into: &writer)
        let drawn = writer.byteCount - start
        if drawn > 0, let capacity = rowsCapacity(for: drawn) { writer.spaces(capacity - drawn) }
    }

    private static func draw(_ rows: [HomeRow], layout: String, into writer: inout HTMLWriter) {
        for row in rows where !row.entries.isEmpty {
            let heading = "\(layout)-row-\(row.name)"
            writer.write("<section class=\"home-section personal-row\"")
            writer.attribute("data-row-name", row.name)
            writer.attribute("aria-labelledby", heading)
            writer.write("><h2 class=\"home-section__title\"")
            writer.attribute("id", heading)
            writer.write(">")
            writer.text(row.title)
            writer.write("</h2><ul class=\"personal-row__tiles\">")
            for entry in row.entries {
                writer.write("<li class=\"personal-tile\"><a class=\"personal-tile__open\"")
                writer.urlAttribute("href", entry.url)
                writer.write("><img class=\"personal-tile__image\"")
                writer.urlAttribute("src", entry.imageURL)
                writer.write(" alt=\"\" width=\"240\" height=\"135\" decoding=\"async\"><span class=\"personal-tile__title\">")
                writer.text(entry.item.title)
                writer.write("</span>")
                if let progress = entry.progress {
                    writer.write("<progress class=\"personal-tile__progress\" max=\"100\"")
                    writer.attribute("value", progress.percent)
                    writer.attribute("aria-label", progress.label)
                    writer.write("></progress>")
                }
                writer.write("</a></li>")
            }
            writer.write("</ul></section>")
        }
    }

    /// A layout's markup around its sections: the form, the toolbar, the empty state, and each
    /// section's element (of class `className`, labelled by its heading) with what `content` draws
    /// inside it, the heading (`heading`) included.
    public static func sections(_ model: BaseHomeViewModel, className: StaticString, into writer: inout HTMLWriter,
                                context: RenderContext, content: (Int, HomeSection, inout HTMLWriter) -> Void) {
        openForm(model, into: &writer, context: context)
        toolbar(model, into: &writer)
        let sections = model.sections
        if sections.isEmpty { emptyState(model, into: &writer) }
        for (index, section) in sections.enumerated() {
            writer.write("<section class=\"")
            writer.write(className)
            writer.write("\"")
            writer.attribute("aria-labelledby", "\(model.layout)-section-\(index)")
            writer.write(">")
            content(index, section, &writer)
            writer.write("</section>")
        }
        closeForm(model, into: &writer)
    }

    /// A section's heading: its kind's title, with the id the section is labelled by.
    public static func heading(_ model: BaseHomeViewModel, _ index: Int, _ section: HomeSection, into writer: inout HTMLWriter) {
        writer.write("<h2 class=\"home-section__title\"")
        sectionID(model, index, into: &writer)
        writer.write(">")
        writer.text(section.kind.sectionTitle)
        writer.write("</h2>")
    }

    /// A section's heading id, unique per layout so two children can share a page.
    public static func sectionID(_ model: BaseHomeViewModel, _ section: Int, into writer: inout HTMLWriter) {
        writer.attribute("id", "\(model.layout)-section-\(section)")
    }

    public static func emptyState(_ model: BaseHomeViewModel, into writer: inout HTMLWriter) {
        // One span: the box is a grid, where a quote's `<bdi>` would be an item of its own.
        writer.write("<p class=\"home-empty\"><span>")
        writer.text(model.emptyMessage)
        writer.write("</span></p>")
    }

    /// Posters of the first row's first tiles are on the first screen: loaded at once. The rest
    /// load as they come near; all carry their size, so nothing moves when they arrive.
    static let eagerPosters = 4

    /// The poster; decorative, since the title is written beside it.
    public static func poster(_ item: any HomeItem, at path: HomeIndexPath, className: StaticString, width: Int,
                       into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<img class=\"")
        writer.write(className)
        writer.write("\"")
        writer.urlAttribute("src", context.assetURL(item.imageURL))
        writer.write(" alt=\"\"")
        writer.attribute("width", width)
        writer.attribute("height", width * 9 / 16)
        writer.write(path.section == 0 && path.item < eagerPosters ? " decoding=\"async\">" : " decoding=\"async\" loading=\"lazy\">")
    }

    /// The live badge a stream on the air now wears over its poster: drawn by the page, not in the
    /// artwork, which cannot know the time. Written last in the item's control, so its text
    /// starts with the title, and placed over the poster by the style sheet; hidden from screen
    /// readers, since the timing line says "Live now".
    public static func liveBadge(_ item: any HomeItem, into writer: inout HTMLWriter) {
        guard item.category == .live, item.isLiveNow else { return }
        writer.write("<span class=\"poster__badge\" aria-hidden=\"true\">Live</span>")
    }
}
