import ScreenKit

/// What the New Year notice draws from.
struct NewYearContentModel {
    /// The notice's heading.
    var title = "Short day on New Year's Eve"
    /// The notice's text.
    var message = "On 31 December we are open until 18:00. We will be back with pizza on 1 January at 12:00."
    /// The illustration, served from `Public/`.
    var imageURL = "/assets/images/new-year.svg"
    /// Text alternative of the illustration.
    var imageDescription = "A pizza under New Year's fireworks next to a clock showing six"
    /// Label of the only button.
    var buttonTitle = "OK, got it"
    /// Where the button posts.
    var dismissURL: String
    /// Hidden fields the button posts with (where to go back to).
    var fields: [(name: String, value: String)]

    /// Creates the model; the texts default to the New Year notice.
    init(dismissURL: String, fields: [(name: String, value: String)] = []) {
        self.dismissURL = dismissURL
        self.fields = fields
    }
}
