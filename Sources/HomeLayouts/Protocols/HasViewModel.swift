/// Lets the container hand items to a child without knowing its view model's type.
public protocol HasViewModel: AnyObject {
    var baseViewModel: BaseHomeViewModel { get }
}
