/// Events per minute by event, layout and item (0 = none; ids from the `Interner`).
struct CountKey: Hashable, Sendable {
    var minute: Int32
    var event: UInt32
    var layout: UInt32
    var item: UInt32
}

/// Events per minute by experiment group, event and layout shown.
struct GroupKey: Hashable, Sendable {
    var minute: Int32
    var experiment: UInt32
    var group: UInt32
    var event: UInt32
    var layout: UInt32
}

/// Which visitors one sketch covers: an hour, overall (experiment 0) or of one experiment group.
struct SketchKey: Hashable, Sendable {
    var hour: Int32
    var experiment: UInt32
    var group: UInt32
}
