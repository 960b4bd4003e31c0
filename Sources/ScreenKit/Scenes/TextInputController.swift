/// What the text input form draws from.
public struct TextInputModel {
    /// The form's description.
    public var request: TextInputRequest
    /// The text in the field (kept after an invalid submission).
    public var text: String = ""
    /// The message for the last invalid submission, if any.
    public var errorMessage: String?

    /// Creates the model for an empty form.
    public init(request: TextInputRequest) {
        self.request = request
    }
}

/// The modal form of a `TextInputRequest`: one labelled field and a submit button.
public final class TextInputController: GenericViewController<TextInputModel, TextInputView> {
    /// Creates the form for `request`.
    public init(request: TextInputRequest) {
        super.init(viewModel: TextInputModel(request: request))
    }

    /// The request's title names the page.
    public override var pageTitle: String? { viewModel.request.title }

    /// The field is focused on load, to start typing at once.
    public override var placesInitialFocus: Bool { true }

    /// Handles a submission. Valid: calls the completion with the trimmed text and returns true.
    /// Invalid: keeps the text, shows the message on the next render and returns false.
    @discardableResult
    public func submit(_ raw: String) -> Bool {
        switch viewModel.request.validate(raw) {
        case .success(let text):
            viewModel.text = text
            viewModel.errorMessage = nil
            viewModel.request.completion(text)
            return true
        case .failure(let failure):
            // Shown again to be corrected, but no longer than the field takes.
            viewModel.text = raw.utf8.count > viewModel.request.maxBytes
                ? String(String.UnicodeScalarView(raw.unicodeScalars.prefix(viewModel.request.maxBytes / 4))) : raw
            viewModel.errorMessage = viewModel.request.message(for: failure)
            return false
        }
    }
}
