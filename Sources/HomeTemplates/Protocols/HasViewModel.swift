/// Lets the container hand items to a child without knowing its view model's type.
public protocol HasViewModel: AnyObject {
    var baseViewModel: BaseHomeViewModel { get }
}

/// Lets the container ask a child to redraw after it set new items.
public protocol Refreshable: AnyObject {
    func refresh()
}
