import ScreenKit

/// Collects lifecycle calls from `Probe` controllers, in order.
final class Recorder {
    var events: [String] = []
}

/// A controller that records every lifecycle call it receives.
final class Probe: ViewController {
    let name: String
    let recorder: Recorder
    /// Parent as seen during each `willMove`/`didMove`, to check when the link is made.
    var parentSeenDuringMoves: [String] = []

    init(_ name: String, _ recorder: Recorder) {
        self.name = name
        self.recorder = recorder
        super.init()
    }

    override var controllerName: String { "Probe-" + name }

    override func loadView() { recorder.events.append("\(name).loadView") }
    override func viewDidLoad() { recorder.events.append("\(name).viewDidLoad") }

    override func willMove(toParent parent: ViewController?) {
        recorder.events.append("\(name).willMove(\(label(parent)))")
        parentSeenDuringMoves.append(label(self.parent))
    }

    override func didMove(toParent parent: ViewController?) {
        recorder.events.append("\(name).didMove(\(label(parent)))")
        parentSeenDuringMoves.append(label(self.parent))
    }

    private func label(_ controller: ViewController?) -> String {
        guard let controller else { return "nil" }
        return (controller as? Probe)?.name ?? controller.controllerName
    }
}
