import ScreenKit

/// What the New Year notice draws from.
struct NewYearContentModel {
    /// The notice's heading.
    var title = "New Year's Eve, live"
    /// The notice's text: what changes in the schedule over New Year.
    var message = "On 31 December the New Year's Eve concert streams live from Zürich from 22:00 UTC, fireworks at "
        + "midnight included. Some live shows take a break over the holidays: their tiles say when they are back. "
        + "Films and clips are here all night, as always."
    /// The illustration, served from `Public/`.
    var imageURL = "/assets/images/new-year.svg"
    /// Text alternative of the illustration.
    var imageDescription = "A screen playing a live stream under New Year's fireworks, next to a clock at midnight"
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
