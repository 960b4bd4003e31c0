/// Analytics hooks, injected by the container.
public protocol HomeReporting: AnyObject {
    /// The child is on screen.
    var didLaunch: (() -> Void)? { get set }
    /// A row was scrolled sideways; the index path is where it scrolled to.
    var didHorizontalSwipe: ((HomeIndexPath) -> Void)? { get set }
}
