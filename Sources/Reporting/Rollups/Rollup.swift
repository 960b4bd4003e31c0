/// What a segment (or part of one) holds, counted: the rollup the report pages read instead of
/// the events. Merging two rollups gives exactly the rollup of both parts.
struct Rollup: Sendable, Equatable {
    var counts: [CountKey: Int] = [:]
    var groups: [GroupKey: Int] = [:]
    var sketches: [SketchKey: HyperLogLog] = [:]
    /// Lines counted and the bytes they take (newlines included).
    var lines = 0
    var bytes: Int64 = 0
    /// The first and last event times, epoch ms (`Int64.max` / `.min` while empty).
    var firstMs = Int64.max
    var lastMs = Int64.min

    var isEmpty: Bool { lines == 0 }

    mutating func merge(_ other: Rollup) {
        for (key, count) in other.counts { counts[key, default: 0] += count }
        for (key, count) in other.groups { groups[key, default: 0] += count }
        for (key, sketch) in other.sketches {
            if sketches[key] == nil { sketches[key] = sketch } else { sketches[key]!.merge(sketch) }
        }
        lines += other.lines
        bytes += other.bytes
        firstMs = min(firstMs, other.firstMs)
        lastMs = max(lastMs, other.lastMs)
    }

    /// Replaces the ids by strings, for comparing rollups built against different interners.
    func described(_ names: [String]) -> [String] {
        var out: [String] = ["lines \(lines) bytes \(bytes) first \(firstMs) last \(lastMs)"]
        for (key, count) in counts {
            out.append("c \(key.minute) \(names[Int(key.event)]) \(names[Int(key.layout)]) \(names[Int(key.item)]) \(count)")
        }
        for (key, count) in groups {
            out.append(
                "g \(key.minute) \(names[Int(key.experiment)]) \(names[Int(key.group)]) \(names[Int(key.event)]) \(names[Int(key.layout)]) \(count)")
        }
        for (key, sketch) in sketches {
            out.append("s \(key.hour) \(names[Int(key.experiment)]) \(names[Int(key.group)]) \(sketch.registers.hashValue)")
        }
        return out.sorted()
    }
}
