/// Everything a person can do on the home, injected by the container. Children only call these,
/// with index paths into their own sections: what an action means is the container's business.
public protocol HomeActions: AnyObject {
    var longSelected: ((HomeIndexPath) -> Void)? { get set }
    var shortSelected: ((HomeIndexPath) -> Void)? { get set }
    var streamSelected: ((HomeIndexPath) -> Void)? { get set }
    var settingsSelected: (() -> Void)? { get set }
    /// Asks the container to swap this child for another.
    var replaceWith: ((any HomeLayout) -> Void)? { get set }
}
