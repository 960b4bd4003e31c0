/// Lets the container ask a child to redraw after it set new items.
public protocol Refreshable: AnyObject {
    func refresh()
}
