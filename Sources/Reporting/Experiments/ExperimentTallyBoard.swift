import Synchronization

/// The tallies' sums as the report pages read them: the writer publishes after each chunk it
/// applied, readers take a copy. A few hundred bytes an experiment, however many visitors.
final class ExperimentTallyBoard: Sendable {
    struct State {
        var experiments: [String: ExperimentVisitors] = [:]
        /// False while the tallies are rebuilt from the log (or were never opened): nothing to show yet.
        var ready = false
        /// While the tallies are being loaded or rebuilt: the share of the log read so far.
        var progress: Double?
    }

    private let state = Mutex(State())

    func publish(_ experiments: [String: ExperimentVisitors]) {
        state.withLock { $0 = State(experiments: experiments, ready: true) }
    }

    /// The tallies are being made ready: nothing to show but how far it has come.
    func counting(progress: Double) {
        state.withLock { $0 = State(experiments: [:], ready: false, progress: progress) }
    }

    var snapshot: State { state.withLock { $0 } }
}
