extension SplicedBytes {
    /// Copies with an insert kept for reuse; the oldest goes first when more come back.
    static let keptInsertedCopies = 16

    /// A copy of `base` with `run` at the slot and `filling` in every hole (those after the slot
    /// moved by the run's length), handed back like `lease(filling:)`'s. A copy as long that came
    /// back keeps the bytes around the slot, so only the run and the holes are written: inserts
    /// come in a few lengths (the app pads them), so a visitor with rows is served like one
    /// without. Nil without a slot, when `filling` does not fit the holes, or memory ran out.
    func lease(filling: SplicedFilling, inserting run: UnsafeRawBufferPointer) -> SplicedCopy? {
        guard let slot, holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        let count = base.count + run.count
        let copy: SplicedCopy
        if let reused = insertedIdle.withLock({ idle in idle.lastIndex { $0.count == count }.map { idle.remove(at: $0) } }) {
            copy = reused
        } else {
            guard let fresh = base.withUnsafeBytes({ SplicedCopy($0, gap: run.count, at: slot) }) else { return nil }
            copy = fresh
        }
        copy.lend(from: self)
        write(run, filling: filling, into: copy.bytes, slot: slot)
        return copy
    }

    /// `base` with `run` at the slot and `filling` in every hole, as one array.
    func filled(with filling: SplicedFilling, inserting run: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let slot, holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        return [UInt8](unsafeUninitializedCapacity: base.count + run.count) { buffer, initialized in
            let bytes = UnsafeMutableRawPointer(buffer.baseAddress!)
            base.withUnsafeBytes { base in
                bytes.copyMemory(from: base.baseAddress!, byteCount: slot)
                (bytes + slot + run.count).copyMemory(from: base.baseAddress! + slot, byteCount: base.count - slot)
            }
            write(run, filling: filling, into: bytes, slot: slot)
            initialized = buffer.count
        }
    }

    /// Writes `run` at `slot` and `filling` into the holes of a copy made with room for the run.
    private func write(_ run: UnsafeRawBufferPointer, filling: SplicedFilling, into bytes: UnsafeMutableRawPointer,
                       slot: Int) {
        if let from = run.baseAddress { (bytes + slot).copyMemory(from: from, byteCount: run.count) }
        filling.withUnsafeBytes { token in
            guard let from = token.baseAddress else { return }
            for hole in holes {
                let at = hole.lowerBound + (hole.lowerBound >= slot ? run.count : 0)
                (bytes + at).copyMemory(from: from, byteCount: token.count)
            }
        }
    }

    /// Keeps a copy with an insert for the next response of its length, dropping the oldest
    /// kept when there are enough.
    func keepInserted(_ copy: SplicedCopy) {
        // The dropped one is returned, to be freed (with its response) outside the lock.
        _ = insertedIdle.withLock { idle -> SplicedCopy? in
            idle.append(copy)
            return idle.count > Self.keptInsertedCopies ? idle.removeFirst() : nil
        }
    }

    /// Copies with an insert waiting for the next response.
    var insertedIdleCount: Int { insertedIdle.withLock { $0.count } }
}
