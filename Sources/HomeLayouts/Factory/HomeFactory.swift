/// The layouts the home can show, by name (UIKit's `HomeFactory.create(withStyle:)` pattern).
/// Adding a layout is one file (the child) and one `register` line.
public struct HomeFactory: Sendable {
    public private(set) var layouts: [any HomeLayout.Type] = []
    /// The layouts' names in registration order, kept as they are registered: `has` runs on
    /// every home request, and asking each layout type for its name went through its witness table.
    public private(set) var names: [String] = []

    public init(_ layouts: [any HomeLayout.Type] = []) {
        for layout in layouts { register(layout) }
    }

    /// The layouts this product ships.
    public static let standard = HomeFactory([ListHome.self, GridHome.self])

    /// The layout shown when nothing else decides: the list, when the factory has it.
    public var fallbackLayout: String { has(ListHome.layoutName) ? ListHome.layoutName : names[0] }

    /// Adds a layout, or replaces the one with the same name.
    public mutating func register(_ layout: any HomeLayout.Type) {
        layouts.removeAll { $0.layoutName == layout.layoutName }
        layouts.append(layout)
        names = layouts.map { $0.layoutName }
    }

    /// Whether a layout is called `name`.
    public func has(_ name: String) -> Bool {
        // By index: `contains` over the array went through its generic iterator.
        for index in names.indices where names[index] == name { return true }
        return false
    }

    /// A new child for `name`, injected with this factory; nil for an unknown name.
    public func make(_ name: String) -> (any HomeLayout)? {
        guard let layout = layouts.first(where: { $0.layoutName == name }) else { return nil }
        let child = layout.init()
        child.factory = self
        return child
    }
}
