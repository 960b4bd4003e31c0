/// Asks for one line of text in a modal form.
/// The value only describes the form; `TextInputController` shows it and validates submissions.
public struct TextInputRequest: SceneRequest {
    /// Why a submission was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Nothing but whitespace was entered.
        case empty
        /// The trimmed text is longer than the limit.
        case tooLong(maxLength: Int)
    }

    /// The dialog's heading and page title.
    public var title: String
    /// The field's visible label.
    public var label: String
    /// The field's form name (the home's search uses `q`).
    public var fieldName: String
    /// Where the form submits.
    public var action: String
    /// How it submits: `.get` for a search, `.post` (with `_csrf`) for anything that changes state.
    public var method: FormMethod
    /// The submit button's label.
    public var submitTitle: String
    /// Hint shown in the empty field, if any.
    public var placeholder: String?
    /// Most characters the trimmed text may have.
    public var maxLength: Int
    /// Where the modal's close link goes back to: closing a text input changes nothing.
    public var dismissURL: String
    /// Hidden fields the form submits with the text (e.g. where closing goes back to).
    public var hiddenFields: [(name: String, value: String)] = []
    /// Message for an empty submission.
    public var requiredMessage: String
    /// Message for a too long submission.
    public var tooLongMessage: String
    /// Called with the trimmed text of a valid submission.
    public var completion: (String) -> Void

    /// Creates a request; messages default to plain English.
    public init(title: String, label: String, fieldName: String = "text", action: String,
                method: FormMethod = .post, submitTitle: String = "Submit",
                placeholder: String? = nil, maxLength: Int = 100, dismissURL: String = "/",
                requiredMessage: String = "Please enter some text.", tooLongMessage: String? = nil,
                completion: @escaping (String) -> Void) {
        self.title = title
        self.label = label
        self.fieldName = fieldName
        self.action = action
        self.method = method
        self.submitTitle = submitTitle
        self.placeholder = placeholder
        self.maxLength = maxLength
        self.dismissURL = dismissURL
        self.requiredMessage = requiredMessage
        self.tooLongMessage = tooLongMessage ?? "Please use at most \(maxLength) characters."
        self.completion = completion
    }

    /// The most UTF-8 bytes accepted: a character may stack any number of combining marks, so a
    /// limit in characters alone bounds nothing. Four bytes per character, as most scripts need.
    public var maxBytes: Int { maxLength * 4 }

    /// The trimmed text if `raw` is acceptable: not empty once trimmed, at most `maxLength`
    /// characters and `maxBytes` bytes.
    public func validate(_ raw: String) -> Result<String, Failure> {
        let trimmed = Self.trimmed(raw)
        if trimmed.isEmpty { return .failure(.empty) }
        if trimmed.count > maxLength || trimmed.utf8.count > maxBytes { return .failure(.tooLong(maxLength: maxLength)) }
        return .success(trimmed)
    }

    /// The message shown next to the field for `failure`.
    public func message(for failure: Failure) -> String {
        switch failure {
        case .empty: requiredMessage
        case .tooLong: tooLongMessage
        }
    }

    /// `raw` without leading and trailing whitespace and newlines.
    static func trimmed(_ raw: String) -> String {
        guard let first = raw.firstIndex(where: { !$0.isWhitespace }),
              let last = raw.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(raw[first...last])
    }
}
