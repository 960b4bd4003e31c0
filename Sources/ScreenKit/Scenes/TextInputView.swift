/// Markup of `TextInputController`: heading, label, field, error message and submit button.
public final class TextInputView: RootView {
    /// Creates the view.
    public init() {}

    /// The root element's class.
    public static var cssClass: StaticString? { "text-input" }

    /// Writes the form; an error is tied to the field with `aria-describedby` and `aria-invalid`.
    public func renderContent(_ model: TextInputModel, into writer: inout HTMLWriter,
                              scope: RenderScope) {
        let request = model.request
        let fieldID = "text-input-" + request.fieldName
        let errorID = fieldID + "-error"
        writer.write("<form class=\"text-input__form\"")
        writer.attribute("method", request.method.rawValue)
        writer.urlAttribute("action", request.action)
        writer.write("><h1 class=\"text-input__title\">")
        writer.text(request.title)
        writer.write("</h1>")
        if request.method == .post { writer.csrfField(scope.context) }
        for field in request.hiddenFields {
            writer.hiddenField(field.name, field.value)
        }
        writer.write("<label class=\"text-input__label\"")
        writer.attribute("for", fieldID)
        writer.write(">")
        writer.text(request.label)
        writer.write("</label><input class=\"text-input__field\" type=\"text\" dir=\"auto\" autocomplete=\"off\" required autofocus")
        writer.attribute("id", fieldID)
        writer.attribute("name", request.fieldName)
        writer.attribute("value", model.text)
        writer.attribute("maxlength", request.maxLength)
        if let placeholder = request.placeholder { writer.attribute("placeholder", placeholder) }
        if model.errorMessage != nil {
            writer.write(" aria-invalid=\"true\"")
            writer.attribute("aria-describedby", errorID)
        }
        writer.write(">")
        if let message = model.errorMessage {
            writer.write("<p class=\"text-input__error\"")
            writer.attribute("id", errorID)
            writer.write(">")
            writer.text(message)
            writer.write("</p>")
        }
        writer.write("<div class=\"text-input__actions\"><button type=\"submit\" class=\"button button--primary\">")
        writer.text(request.submitTitle)
        writer.write("</button></div></form>")
    }
}
