/// How a modal's close button leaves it.
public enum ModalDismissal: Sendable {
    /// A post with the CSRF token, to a URL that records something (a notice not to show again)
    /// and answers with a redirect.
    case post(fields: [(name: String, value: String)] = [])
    /// A plain link: closing changes nothing, it only goes back to where the visitor was.
    case link
}

/// What the modal container draws from.
public struct ModalContainerModel {
    /// Where the close button goes: the URL it posts to, or the page it links back to.
    public var dismissURL: String
    /// Whether closing posts (changing something) or is a plain link.
    public var dismissal: ModalDismissal
    /// Accessible name of the close button.
    public var closeLabel: String
    /// Accessible name of the dialog when no child declares a page title.
    public var fallbackLabel: String
    /// The sheet takes the focus when the page loads, so keyboard and screen-reader users start
    /// in the dialog; false when the content focuses a field of its own.
    public var focusesSheet: Bool

    /// Creates the model.
    public init(dismissURL: String, dismissal: ModalDismissal = .post(), closeLabel: String = "Close",
                fallbackLabel: String = "Dialog", focusesSheet: Bool = true) {
        self.dismissURL = dismissURL
        self.dismissal = dismissal
        self.closeLabel = closeLabel
        self.fallbackLabel = fallbackLabel
        self.focusesSheet = focusesSheet
    }
}

/// The outer layer of the onion: presents its child as a modal sheet with a close button that
/// posts to, or links to, a URL chosen by its owner.
public final class ModalContainer: GenericViewController<ModalContainerModel, ModalContainerView> {
    /// Creates a modal container whose close button posts to `dismissURL` (or links to it).
    public init(dismissURL: String, dismissal: ModalDismissal = .post()) {
        super.init(viewModel: ModalContainerModel(dismissURL: dismissURL, dismissal: dismissal))
    }

    /// Pads the child's top edge so its content never sits under the corner close button, and
    /// leaves the focus to a child that places it itself.
    public override func prepare(toEmbed child: ViewController, in slot: Slot) {
        child.additionalSafeAreaInsets.top = .xl
        if slot == .content { viewModel.focusesSheet = !child.placesInitialFocus }
    }
}

extension ViewController {
    /// Embeds this controller in a new `ModalContainer` whose close button posts to (or links
    /// to) `dismissURL`.
    public func wrapInModalContainer(dismissURL: String, dismissal: ModalDismissal = .post()) -> ModalContainer {
        let modal = ModalContainer(dismissURL: dismissURL, dismissal: dismissal)
        modal.embed(self)
        return modal
    }
}
