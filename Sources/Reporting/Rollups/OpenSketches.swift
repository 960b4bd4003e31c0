/// The experiment groups' visitor sketches of the hour being written, kept out of the rollup's
/// dictionary as the overall one is (`RollupBuilder`'s hour sketch): a short list scanned by key
/// instead of a dictionary hashed for every event. A sketch is handed to the rollup only when one
/// of the chunk's events raised a register (handing the same visitors again is harmless: sketches
/// merge by maximum), and it lives across chunks until its hour is over. The overall sketch stays
/// apart, in `RollupBuilder`: kept here as one more entry it cost every event about 20
/// instructions more (the list's scan and uniqueness check), 2% of the writer's share.
struct OpenSketches {
    private struct Open {
        let key: SketchKey
        var sketch = HyperLogLog()
        var raised = false
    }

    private var open: [Open] = []
    /// Beyond this many groups in one hour, all are handed over and the list starts again.
    private static let capacity = 32

    /// Adds the visitor's hash to the sketch of `key`, handing over those of other hours (into
    /// `sketches`) when a new one opens.
    @inline(__always)
    mutating func add(_ key: SketchKey, hash: UInt64, handingTo sketches: inout [SketchKey: HyperLogLog]) {
        for index in open.indices where open[index].key == key {
            if open[index].sketch.add(hash: hash) { open[index].raised = true }
            return
        }
        if open.count >= Self.capacity {
            hand(to: &sketches)
            open.removeAll()
        } else if open.contains(where: { $0.key.hour != key.hour }) {
            hand(to: &sketches)
            open.removeAll { $0.key.hour != key.hour }
        }
        var opened = Open(key: key)
        opened.raised = opened.sketch.add(hash: hash)
        open.append(opened)
    }

    /// Merges each sketch raised since the last hand-over into `sketches`.
    @inline(__always)
    mutating func hand(to sketches: inout [SketchKey: HyperLogLog]) {
        if open.isEmpty { return }
        for index in open.indices where open[index].raised {
            if sketches[open[index].key] == nil {
                sketches[open[index].key] = open[index].sketch
            } else {
                sketches[open[index].key]!.merge(open[index].sketch)
            }
            open[index].raised = false
        }
    }

    /// The chunk was not written as counted: what it raised is not handed over.
    @inline(__always)
    mutating func forgetRaised() {
        if open.isEmpty { return }
        for index in open.indices { open[index].raised = false }
    }

    /// Forgets every sketch: for a new segment.
    mutating func removeAll() { open.removeAll() }
}
