/// One section of a child: the items of one kind, in the child's order.
public struct HomeSection: Sendable {
    public let kind: HomeItemKind
    public let items: [any HomeItem]
}
