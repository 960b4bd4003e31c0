import Testing
@testable import ScreenKit

@Suite struct LifecycleTests {
    let recorder = Recorder()

    @Test func embedCallsWillMoveThenDidMoveWithTheLinkMadeInBetween() {
        let parent = Probe("parent", recorder)
        let child = Probe("child", recorder)
        parent.embed(child, in: "aside")
        #expect(recorder.events == ["child.willMove(parent)", "child.didMove(parent)"])
        #expect(child.parentSeenDuringMoves == ["nil", "parent"])
        #expect(parent.children.count == 1 && parent.children[0] === child)
        #expect(child.parent === parent && child.slot == "aside")
    }

    @Test func addChildCallsOnlyWillMoveAndRemoveFromParentOnlyDidMove() {
        let parent = Probe("parent", recorder)
        let child = Probe("child", recorder)
        parent.addChild(child)
        #expect(recorder.events == ["child.willMove(parent)"])
        child.removeFromParent()
        #expect(recorder.events == ["child.willMove(parent)", "child.didMove(nil)"])
        #expect(child.parent == nil && parent.children.isEmpty)
    }

    @Test func unembedRunsTheRemovalLifecycle() {
        let parent = Probe("parent", recorder)
        let child = Probe("child", recorder)
        parent.embed(child)
        recorder.events.removeAll()
        parent.unembed(child)
        #expect(recorder.events == ["child.willMove(nil)", "child.didMove(nil)"])
        #expect(child.parent == nil && parent.children.isEmpty)
    }

    @Test func replaceRunsUIKitOrderAndKeepsSlotAndPosition() throws {
        let parent = Probe("parent", recorder)
        let first = Probe("first", recorder)
        let old = Probe("old", recorder)
        let last = Probe("last", recorder)
        parent.embed(first)
        parent.embed(old, in: "main")
        parent.embed(last)
        recorder.events.removeAll()

        let new = Probe("new", recorder)
        parent.replace(old, with: new)
        #expect(recorder.events == ["old.willMove(nil)", "new.willMove(parent)",
                                    "old.didMove(nil)", "new.didMove(parent)"])
        #expect(parent.children.map { ($0 as! Probe).name } == ["first", "new", "last"])
        #expect(new.slot == "main" && old.parent == nil && new.parent === parent)

        let root = try renderTree(parent)
        let marked = root.first { $0.attributes["data-controller"] == "Probe-new" }
        #expect(marked?.attributes["data-transition"] == "cross-fade")
        #expect(root.first { $0.attributes["data-controller"] == "Probe-last" }?.attributes["data-transition"] == nil)
    }

    @Test func movingToAnotherParentLeavesTheOldOne() {
        let a = Probe("a", recorder)
        let b = Probe("b", recorder)
        let child = Probe("child", recorder)
        a.embed(child)
        b.embed(child)
        #expect(a.children.isEmpty && b.children.count == 1 && child.parent === b)
    }

    @Test func viewLoadsLazilyOnceOnFirstRender() {
        let controller = Probe("c", recorder)
        #expect(!controller.isViewLoaded && recorder.events.isEmpty)
        _ = renderHTML(controller)
        _ = renderHTML(controller)
        #expect(recorder.events == ["c.loadView", "c.viewDidLoad"])
        #expect(controller.isViewLoaded)
    }

    @Test func nestingInHTMLFollowsTheControllerTree() throws {
        let root = Probe("root", recorder)
        let left = Probe("left", recorder)
        let inner = Probe("inner", recorder)
        root.embed(left)
        left.embed(inner)
        root.embed(Probe("right", recorder))
        let tree = try renderTree(root)
        let names = controllerElements(in: tree).map { $0.attributes["data-controller"] ?? "" }
        #expect(names == ["Probe-root", "Probe-left", "Probe-inner", "Probe-right"])
        let innerElement = tree.first { $0.attributes["data-controller"] == "Probe-inner" }
        #expect(innerElement?.parent?.attributes["data-controller"] == "Probe-left")
    }
}
