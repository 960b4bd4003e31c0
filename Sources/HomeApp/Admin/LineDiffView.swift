import ScreenKit

/// A `LineDiff` as a block of lines marked removed (−) and added (+), with a little context.
enum LineDiffView {
    static func render(_ diff: LineDiff, label: String, into writer: inout HTMLWriter) {
        guard !diff.isEmpty else {
            writer.write("<p class=\"admin-diff__none\">No difference.</p>")
            return
        }
        writer.write("<pre class=\"admin-diff\"")
        writer.attribute("aria-label", label)
        writer.write(">")
        for line in diff.hunks() {
            switch line {
            case nil: writer.write("<span class=\"admin-diff__gap\">…</span>\n")
            case .kept(let text)?:
                writer.write("<span class=\"admin-diff__kept\">  ")
                writer.text(text)
                writer.write("</span>\n")
            case .removed(let text)?:
                writer.write("<del class=\"admin-diff__removed\">- ")
                writer.text(text)
                writer.write("</del>\n")
            case .added(let text)?:
                writer.write("<ins class=\"admin-diff__added\">+ ")
                writer.text(text)
                writer.write("</ins>\n")
            }
        }
        writer.write("</pre>")
    }
}
