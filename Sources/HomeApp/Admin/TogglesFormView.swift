import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FeatureToggles
import ScreenKit

/// The toggles form: every field with the rule the file loader checks beside it, and the
/// loader's message beside the field it is about. Works without JavaScript: a blank experiment
/// and a blank group row stand ready to be filled in.
struct TogglesFormView {
    /// A loader message and the form field it is about (nil: the whole form).
    struct Problem {
        let field: String?
        let message: String
    }

    let form: TogglesForm
    let layouts: [String]
    var problem: Problem?
    /// Offer "Apply" (after a review) besides "Review".
    var offersApply = false
    /// The note's own problem (empty on apply).
    var noteMissing = false

    func render(into writer: inout HTMLWriter, context: RenderContext) {
        if let problem {
            writer.write("<div class=\"admin__problem\" role=\"alert\"><p>Nothing was applied. ")
            if let field = problem.field {
                writer.write("<a")
                writer.urlAttribute("href", "#" + Self.id(field))
                writer.write(">")
                writer.text(field)
                writer.write("</a> ")
            }
            writer.text(problem.message)
            writer.write("</p></div>")
        }
        writer.write("<form class=\"admin-form\" method=\"post\" action=\"/admin/toggles\">")
        writer.csrfField(context)
        writer.hiddenField("base", form.base)
        writer.write("<fieldset class=\"admin-form__set\"")
        writer.attribute("id", Self.id("defaultLayout"))
        writer.write("><legend>Default layout</legend>")
        for layout in layouts {
            writer.write("<label class=\"admin-form__choice\"><input type=\"radio\" name=\"defaultLayout\"")
            writer.attribute("value", layout)
            writer.attribute("checked", if: form.defaultLayout == layout)
            writer.write("> ")
            writer.text(layout)
            writer.write("</label>")
        }
        hint("defaultLayout", "For visitors outside every rollout and layout experiment.", into: &writer)
        error(for: "defaultLayout", into: &writer)
        writer.write("</fieldset><div class=\"admin-form__field\"><label class=\"admin-form__choice\"><input type=\"checkbox\" name=\"onboarding\" value=\"true\"")
        writer.attribute("id", Self.id("onboarding"))
        writer.attribute("checked", if: form.onboarding)
        writer.write("> Show the onboarding notice on a first visit</label>")
        error(for: "onboarding", into: &writer)
        writer.write("</div><fieldset class=\"admin-form__set\"")
        writer.attribute("id", Self.id("rows"))
        writer.write("><legend>Rows on the home</legend>")
        hint("rows", "Each row can be switched off for every visitor; a group of an experiment may switch it too.", into: &writer)
        error(for: "rows", into: &writer)
        for row in Toggles.rowNames {
            select("rows.\(row)", label: Self.rowTitles[row] ?? row, value: form.rows[row] ?? "",
                   options: [("", "Shown"), ("false", "Not shown")], into: &writer)
        }
        writer.write("</fieldset><fieldset class=\"admin-form__set\"")
        writer.attribute("id", Self.id("rollout"))
        writer.write("><legend>Rollout</legend>")
        hint("rollout", "Each layout's share of visitors in percent, from 0 to 100 (25 is a quarter); the shares add up to at most 100.", into: &writer)
        error(for: "rollout", into: &writer)
        for layout in layouts {
            textField("rollout.\(layout)", label: "Share who get \(layout) (%)", value: form.rollout[layout] ?? "",
                      hint: nil, into: &writer, decimal: true)
        }
        writer.write("</fieldset><h2>Experiments</h2>")
        hint("experiments", "At most one running experiment may set the layout, and one the onboarding notice. A group's name goes into the report log; its weight is its share beside the other groups'.", into: &writer)
        error(for: "experiments", into: &writer)
        // A form posted back (a review, a refusal) carries the blank rows drawn for it: those are
        // drawn once more, not kept beside new ones. Only trailing ones, so no field's index moves.
        var experiments = form.experiments
        while experiments.last?.isBlank == true { experiments.removeLast() }
        experiments.append(TogglesForm.Experiment(name: "", active: true, groups: [.init(), .init()]))
        for (index, experiment) in experiments.enumerated() {
            self.experiment(experiment, at: index, isNew: index == experiments.count - 1, into: &writer)
        }
        writer.write("<h2>Scheduled ramps</h2>")
        hint("ramps", "A layout's rollout share that rises on a schedule: at each step's time (UTC) the servers make a new version with that share. Remove a ramp to stop it; the share reached stays.", into: &writer)
        error(for: "ramps", into: &writer)
        var ramps = form.ramps
        while ramps.last?.isBlank == true { ramps.removeLast() }
        ramps.append(TogglesForm.Ramp(layout: layouts.first { $0 != form.defaultLayout } ?? layouts.first ?? "", steps: [("", ""), ("", ""), ("", "")]))
        for (index, ramp) in ramps.enumerated() {
            self.ramp(ramp, at: index, isNew: index == ramps.count - 1, into: &writer)
        }
        writer.write("<h2>Apply</h2>")
        textField("previewVisitor", label: "Preview for visitor id", value: form.previewVisitor,
                  hint: "Optional: a visitor id (from their cookie or the report log) to see what they would get.", into: &writer)
        writer.write("<div class=\"admin-form__field\"><label")
        writer.attribute("for", Self.id("note"))
        writer.write(">Note</label><input type=\"text\" name=\"note\" maxlength=\"500\" required")
        writer.attribute("id", Self.id("note"))
        writer.attribute("value", form.note)
        writer.attribute("aria-describedby", Self.id("note") + "-hint" + (noteMissing ? " " + Self.id("note") + "-error" : ""))
        if noteMissing { writer.write(" aria-invalid=\"true\"") }
        writer.write("><p class=\"admin-form__hint\"")
        writer.attribute("id", Self.id("note") + "-hint")
        writer.write(">Required to apply: why this change, for the history.</p>")
        if noteMissing {
            writer.write("<p class=\"field__error\"")
            writer.attribute("id", Self.id("note") + "-error")
            writer.write(">Write a note to apply.</p>")
        }
        writer.write("</div><div class=\"admin-form__actions\"><button class=\"button button--secondary\" type=\"submit\" name=\"action\" value=\"review\" formnovalidate>Review the difference</button>")
        if offersApply {
            writer.write("<button class=\"button button--primary\" type=\"submit\" name=\"action\" value=\"apply\">Apply</button>")
        }
        writer.write("</div></form>")
    }

    private func experiment(_ experiment: TogglesForm.Experiment, at index: Int, isNew: Bool, into writer: inout HTMLWriter) {
        let path = "experiments[\(index)]"
        openSet(path, class: "admin-form__set admin-form__experiment", legend: isNew ? "New experiment" : "Experiment \(experiment.name)",
                into: &writer)
        textField("\(path).name", label: "Name", value: experiment.name,
                  hint: "Lower-case letters, digits, '-' or '_'; renaming reshuffles its visitors." + (isNew ? " Leave empty to add none." : ""),
                  into: &writer)
        writer.write("<label class=\"admin-form__choice\"><input type=\"checkbox\" value=\"true\"")
        writer.attribute("name", "\(path).active")
        writer.attribute("id", Self.id("\(path).active"))
        writer.attribute("checked", if: experiment.active)
        writer.write("> Running (visitors are assigned to its groups)</label>")
        error(for: "\(path).active", into: &writer)
        if !isNew { removal(path, label: "Remove this experiment", into: &writer) }
        writer.write("<fieldset class=\"admin-form__groups\"")
        writer.attribute("id", Self.id("\(path).groups"))
        writer.write("><legend>Groups</legend>")
        hint("\(path).groups", "At least two, with different names; clear a group's name to remove it.", into: &writer)
        error(for: "\(path).groups", into: &writer)
        var groups = experiment.groups
        if !isNew {
            while groups.last?.isBlank == true { groups.removeLast() }
            groups.append(TogglesForm.Group())
        }
        for (groupIndex, group) in groups.enumerated() {
            let groupPath = "\(path).groups[\(groupIndex)]"
            writer.write("<div class=\"admin-form__group\">")
            error(for: groupPath, into: &writer)
            textField("\(groupPath).name", label: "Group \(groupIndex + 1) name", value: group.name,
                      hint: "1 to 64 characters.", into: &writer)
            textField("\(groupPath).weight", label: "Weight", value: group.weight,
                      hint: "A number greater than 0; empty is 1.", into: &writer, decimal: true)
            select("\(groupPath).layout", label: "Layout", value: group.layout,
                   options: [("", "Not set by this group")] + layouts.map { ($0, $0) }, into: &writer)
            select("\(groupPath).onboarding", label: "Onboarding notice", value: group.onboarding,
                   options: [("", "Not set by this group"), ("true", "Shown"), ("false", "Not shown")], into: &writer)
            textArea("\(groupPath).visitors", label: "Always in this group (visitor ids)", value: group.visitors,
                     hint: "Optional: up to 100 visitor ids (32 lower-case hex digits, the visitor cookie), one a line; "
                         + "an id may be in one group of the experiment only.", into: &writer)
            for row in Toggles.rowNames {
                select("\(groupPath).rows.\(row)", label: Self.rowTitles[row] ?? row, value: group.rows[row] ?? "",
                       options: [("", "Not set by this group"), ("true", "Shown"), ("false", "Not shown")], into: &writer)
            }
            writer.write("</div>")
        }
        writer.write("</fieldset>")
        targeting(experiment.targeting, path: path, into: &writer)
        writer.write("</fieldset>")
    }

    /// Who the experiment takes in, and the namespace range it takes them from.
    private func targeting(_ targeting: TogglesForm.Targeting, path: String, into writer: inout HTMLWriter) {
        let conditions = "\(path).targeting"
        writer.write("<fieldset class=\"admin-form__groups\"")
        writer.attribute("id", Self.id(conditions))
        writer.write("><legend>Targeting</legend>")
        hint(conditions, "Who is in the experiment; every condition set must hold, one left empty holds for all. "
             + "Visitors left out get the rollout or default and carry no group.", into: &writer)
        error(for: conditions, into: &writer)
        writer.write("<fieldset class=\"admin-form__set\"")
        writer.attribute("id", Self.id("\(conditions).device"))
        writer.write("><legend>Devices</legend>")
        for device in DeviceClass.allCases {
            writer.write("<label class=\"admin-form__choice\"><input type=\"checkbox\" value=\"true\"")
            writer.attribute("name", "\(conditions).device.\(device.rawValue)")
            writer.attribute("checked", if: targeting.devices.contains(device.rawValue))
            writer.write("> ")
            writer.text(device.rawValue)
            writer.write("</label>")
        }
        hint("\(conditions).device", "None ticked: every device. From the Sec-CH-UA-Mobile hint and the User-Agent.", into: &writer)
        error(for: "\(conditions).device", into: &writer)
        writer.write("</fieldset>")
        select("\(conditions).visitor", label: "Visitors", value: targeting.visitor,
               options: [("", "New and returning"), ("new", "New (no visitor cookie yet)"), ("returning", "Returning (had the cookie)")],
               into: &writer)
        textField("\(conditions).language", label: "First language", value: targeting.languages,
                  hint: "Optional: language subtags like en de, matched against the first of Accept-Language.", into: &writer)
        select("\(conditions).chosenLayout", label: "The visitor's own layout choice", value: targeting.chosenLayout,
               options: [("", "Any"), ("none", "Made no choice")] + layouts.map { ($0, "Chose \($0)") }, into: &writer)
        writer.write("</fieldset><fieldset class=\"admin-form__groups\"")
        writer.attribute("id", Self.id("\(path).namespace"))
        writer.write("><legend>Namespace</legend>")
        hint("\(path).namespace", "Optional: running experiments of one namespace take ranges of it that do not overlap, "
             + "so they never share a visitor; experiments of other namespaces overlap independently.", into: &writer)
        error(for: "\(path).namespace", into: &writer)
        textField("\(path).namespace.name", label: "Namespace name", value: targeting.namespace,
                  hint: nil, into: &writer)
        writer.write("<div")
        writer.attribute("id", Self.id("\(path).namespace.range"))
        writer.write(">")
        textField("\(path).namespace.range.from", label: "Range from (%)", value: targeting.rangeFrom, hint: nil, into: &writer, decimal: true)
        textField("\(path).namespace.range.to", label: "Range to (%)", value: targeting.rangeTo,
                  hint: "0 ≤ from < to ≤ 100: the percent of the namespace's visitors this experiment takes.", into: &writer, decimal: true)
        error(for: "\(path).namespace.range", into: &writer)
        writer.write("</div></fieldset>")
    }

    private func textArea(_ name: String, label: String, value: String, hint: String, into writer: inout HTMLWriter) {
        let id = Self.id(name)
        writer.write("<div class=\"admin-form__field\"><label")
        writer.attribute("for", id)
        writer.write(">")
        writer.text(label)
        writer.write("</label><textarea rows=\"2\"")
        writer.attribute("id", id)
        writer.attribute("name", name)
        describe(name, hasHint: true, into: &writer)
        writer.write(">")
        writer.text(value)
        writer.write("</textarea>")
        self.hint(name, hint, into: &writer)
        error(for: name, into: &writer)
        writer.write("</div>")
    }

    private func ramp(_ ramp: TogglesForm.Ramp, at index: Int, isNew: Bool, into writer: inout HTMLWriter) {
        let path = "ramps[\(index)]"
        openSet(path, class: "admin-form__set", legend: isNew ? "New ramp" : "Ramp of \(ramp.layout)", into: &writer)
        select("\(path).layout", label: "Layout", value: ramp.layout, options: layouts.map { ($0, $0) }, into: &writer)
        if !isNew { removal(path, label: "Stop this ramp (remove its steps to come)", into: &writer) }
        writer.write("<fieldset class=\"admin-form__groups\"")
        writer.attribute("id", Self.id("\(path).steps"))
        writer.write("><legend>Steps</legend>")
        hint("\(path).steps", "Times in order, like 2026-01-01T12:00:00Z; shares in percent, from 0 to 100. Leave a row empty for none." + (isNew ? " Leave every row empty to add no ramp." : ""), into: &writer)
        error(for: "\(path).steps", into: &writer)
        var steps = ramp.steps
        if !isNew {
            while let last = steps.last, last.at.isEmpty && last.share.isEmpty { steps.removeLast() }
            steps.append(("", ""))
        }
        for (stepIndex, step) in steps.enumerated() {
            let stepPath = "\(path).steps[\(stepIndex)]"
            writer.write("<div class=\"admin-form__group\">")
            textField("\(stepPath).at", label: "Step \(stepIndex + 1) time (UTC)", value: step.at, hint: nil, into: &writer)
            textField("\(stepPath).share", label: "Share (%)", value: step.share, hint: nil, into: &writer, decimal: true)
            writer.write("</div>")
        }
        writer.write("</fieldset></fieldset>")
    }

    private func textField(_ name: String, label: String, value: String, hint: String?, into writer: inout HTMLWriter,
                           decimal: Bool = false) {
        let id = Self.id(name)
        openField(id, label: label, into: &writer)
        writer.write("<input type=\"text\"")
        if decimal { writer.write(" inputmode=\"decimal\"") }
        writer.attribute("id", id)
        writer.attribute("name", name)
        writer.attribute("value", value)
        describe(name, hasHint: hint != nil, into: &writer)
        writer.write(">")
        if let hint { self.hint(name, hint, into: &writer) }
        error(for: name, into: &writer)
        writer.write("</div>")
    }

    /// A field's box and its label; the caller writes the control and closes the box.
    private func openField(_ id: String, label: String, into writer: inout HTMLWriter) {
        writer.write("<div class=\"admin-form__field\"><label")
        writer.attribute("for", id)
        writer.write(">")
        writer.text(label)
        writer.write("</label>")
    }

    /// An experiment's or a ramp's fieldset, up to its legend and the error that names it; the caller closes it.
    private func openSet(_ path: String, class name: String, legend: String, into writer: inout HTMLWriter) {
        writer.write("<fieldset")
        writer.attribute("class", name)
        writer.attribute("id", Self.id(path))
        writer.write("><legend>")
        writer.text(legend)
        writer.write("</legend>")
        error(for: path, into: &writer)
    }

    /// The checkbox that removes the experiment or ramp at `path` from the next version.
    private func removal(_ path: String, label: String, into writer: inout HTMLWriter) {
        writer.write("<label class=\"admin-form__choice\"><input type=\"checkbox\" value=\"true\"")
        writer.attribute("name", "\(path).remove")
        writer.write("> ")
        writer.text(label)
        writer.write("</label>")
    }

    private func select(_ name: String, label: String, value: String, options: [(String, String)], into writer: inout HTMLWriter) {
        let id = Self.id(name)
        openField(id, label: label, into: &writer)
        writer.write("<select")
        writer.attribute("id", id)
        writer.attribute("name", name)
        describe(name, hasHint: false, into: &writer)
        writer.write(">")
        for (option, text) in options { writer.option(option, text: text, selected: option == value) }
        writer.write("</select>")
        error(for: name, into: &writer)
        writer.write("</div>")
    }

    private func describe(_ name: String, hasHint: Bool, into writer: inout HTMLWriter) {
        let id = Self.id(name)
        let described = (hasHint ? [id + "-hint"] : []) + (problem?.field == name ? [id + "-error"] : [])
        if !described.isEmpty { writer.attribute("aria-describedby", described.joined(separator: " ")) }
        if problem?.field == name { writer.write(" aria-invalid=\"true\"") }
    }

    private func hint(_ name: String, _ text: String, into writer: inout HTMLWriter) {
        writer.write("<p class=\"admin-form__hint\"")
        writer.attribute("id", Self.id(name) + "-hint")
        writer.write(">")
        writer.text(text)
        writer.write("</p>")
    }

    private func error(for name: String, into writer: inout HTMLWriter) {
        guard let problem, problem.field == name else { return }
        writer.write("<p class=\"field__error\"")
        writer.attribute("id", Self.id(name) + "-error")
        writer.write(">")
        writer.text(problem.message)
        writer.write("</p>")
    }

    /// An element id for a field name: `experiments[0].groups[1].weight` → `field-experiments-0-groups-1-weight`.
    /// The rows' labels, as the home titles them.
    static let rowTitles = ["continue-watching": "Continue watching", "my-list": "My List", "trending": "Trending now",
                            "because-you-watched": "Because you watched"]

    static func id(_ name: String) -> String {
        "field-" + String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
            .replacing("--", with: "-").trimming(while: { $0 == "-" })
    }
}
