/// What the modal container draws from.
public struct ModalContainerModel {
    /// Where the close button posts (answered by the app, e.g. 303 back to `/`).
    public var dismissURL: String
    /// Accessible name of the close button.
    public var closeLabel: String
    /// Accessible name of the dialog when no child declares a page title.
    public var fallbackLabel: String

    /// Creates the model.
    public init(dismissURL: String, closeLabel: String = "Close", fallbackLabel: String = "Dialog") {
        self.dismissURL = dismissURL
        self.closeLabel = closeLabel
        self.fallbackLabel = fallbackLabel
    }
}

/// The outer layer of the onion: presents its child as a modal sheet with a close button that
/// posts to a dismiss URL chosen by its owner.
public final class ModalContainer: GenericViewController<ModalContainerModel, ModalContainerView> {
    /// Creates a modal container whose close button posts to `dismissURL`.
    public init(dismissURL: String) {
        super.init(viewModel: ModalContainerModel(dismissURL: dismissURL))
    }

    /// Pads the child's top edge so its content never sits under the corner close button.
    public override func prepare(toEmbed child: ViewController, in slot: Slot) {
        child.additionalSafeAreaInsets.top = .xl
    }
}

extension ViewController {
    /// Embeds this controller in a new `ModalContainer` whose close button posts to `dismissURL`.
    public func wrapInModalContainer(dismissURL: String) -> ModalContainer {
        let modal = ModalContainer(dismissURL: dismissURL)
        modal.embed(self)
        return modal
    }
}
