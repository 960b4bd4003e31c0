/// Content of an `OnboardingTemplate` supplies the template's buttons through this protocol.
public protocol OnboardingDatasource: AnyObject {
    /// The buttons the template renders in its bottom row, in order.
    var supportingViews: [any Component] { get }
}
