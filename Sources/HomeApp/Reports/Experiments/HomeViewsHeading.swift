import ScreenKit

/// Between an experiment's visitor figures and its home views: the heading of the home views and
/// what they are worth beside the visitor figures. The views' test counts every view as if it were
/// independent, but a visitor's views go together, so its p-value can read 0.02 beside a visitor
/// p-value of 0.67; the visitors were randomised, and their figures decide.
enum HomeViewsHeading {
    static func render(_ result: ExperimentResult, model: ExperimentsScreenModel, into writer: inout HTMLWriter) {
        guard result.visitors != nil else { return }
        // The Visitors choice picks the visitor figures only: say so where the figures of all change.
        writer.write("<h3>")
        writer.text("Home views in the range" + (model.segment == .all ? ""
            : ", of all visitors (not only \(VisitorSection.label(model.segment).lowercased()))"))
        writer.write("</h3><p class=\"experiment__power\" data-views-not-independent>")
        writer.text("These count each home view as if independent, but one visitor's views are not, so their intervals "
                    + "and p-values are more confident than they should be: decide by the visitor figures above.")
        writer.write("</p>")
    }
}
