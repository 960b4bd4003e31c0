extension ViewController {
    /// Adds `child` (calling its `willMove(toParent:)` first, as UIKit does) in the content slot.
    /// Call `child.didMove(toParent: self)` when done, or use `embed(_:in:)` which does both.
    public func addChild(_ child: ViewController) {
        insertChild(child, at: children.count, slot: .content)
    }

    /// Removes this controller from its parent, then calls `didMove(toParent: nil)`.
    /// Call `willMove(toParent: nil)` before, or use the parent's `unembed(_:)`.
    public func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Embeds `child` into `slot` of this controller's root view with the full lifecycle.
    public func embed(_ child: ViewController, in slot: Slot = .content) {
        insertChild(child, at: children.count, slot: slot)
        child.didMove(toParent: self)
    }

    /// Removes an embedded child with the full lifecycle: `willMove(nil)`, then `removeFromParent()`.
    public func unembed(_ child: ViewController) {
        guard child.parent === self else { return }
        child.willMove(toParent: nil)
        child.removeFromParent()
    }

    /// Swaps `old` for `new` in the same slot and position, in UIKit's order: old `willMove(nil)`,
    /// `addChild(new)`, old `removeFromParent()`, new `didMove(self)`. The new child's root is
    /// marked with `data-transition` so the browser can animate the change. If `old` is not a
    /// child of this controller, `new` is simply embedded in the content slot.
    public func replace(_ old: ViewController, with new: ViewController,
                        transition: Transition = .crossFade) {
        guard old.parent === self, let index = children.firstIndex(where: { $0 === old }) else {
            embed(new)
            return
        }
        old.willMove(toParent: nil)
        insertChild(new, at: index, slot: old.slot)
        old.removeFromParent()
        new.transition = transition
        new.didMove(toParent: self)
    }

    /// The shared part of `addChild`: `willMove`, leave any old parent, link up.
    func insertChild(_ child: ViewController, at index: Int, slot: Slot) {
        precondition(child !== self, "a controller cannot contain itself")
        prepare(toEmbed: child, in: slot)
        child.willMove(toParent: self)
        if let previous = child.parent {
            previous.children.removeAll { $0 === child }
        }
        child.slot = slot
        child.parent = self
        children.insert(child, at: min(index, children.count))
    }
}
