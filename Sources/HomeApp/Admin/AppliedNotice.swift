import MicroHTTP
import ScreenKit

/// The banner after an apply (`?applied=N`, `?unchanged`), told from the history rather than the
/// address alone: a version that does not exist says nothing, and one since replaced says so.
struct AppliedNotice {
    let applied: Int?
    let unchanged: Bool

    init(_ request: Request) {
        applied = request.query["applied"].flatMap { Int($0) }
        unchanged = request.query["unchanged"] != nil
    }

    func render(current: ConfigHistory.Entry, history: ConfigHistory, into writer: inout HTMLWriter) {
        if unchanged {
            writer.write("<p class=\"admin__notice\" role=\"status\">Nothing to apply: what you sent is the version in force already.</p>")
        }
        guard let applied, applied > 0, applied <= current.version, applied == current.version || history.entry(applied) != nil
        else { return }
        writer.write("<p class=\"admin__notice\" role=\"status\">Version ")
        writer.write(applied)
        if applied == current.version {
            writer.write(" applied.</p>")
        } else {
            writer.write(" was applied; version ")
            writer.write(current.version)
            writer.write(" has been applied since.</p>")
        }
    }
}
