import Basics
import CZlib
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A rollup on disk, beside its segment (`events-….rollup`): little-endian binary with its own string
/// table and a CRC-32 at the end, so a torn or half-written file is recognised and rebuilt.
/// Written to a temporary name and renamed, so a reader sees the old file or the new one.
enum RollupFile {
    static let magic = Array("DHROLLUP1\n".utf8)

    struct Contents {
        var rollup: Rollup
        /// The segment was closed when this was written: nothing follows `rollup.bytes`.
        var closed: Bool
    }

    static func encode(_ rollup: Rollup, closed: Bool, names: [String]) -> [UInt8] {
        var out = magic
        var local: [UInt32: UInt32] = [0: 0]
        var strings: [String] = [""]
        func id(_ global: UInt32) -> UInt32 {
            if let known = local[global] { return known }
            let next = UInt32(strings.count)
            local[global] = next
            strings.append(names[Int(global)])
            return next
        }
        // Keys first, so the string table (written before them) is complete.
        let counts = rollup.counts.map { key, count in
            [UInt32(bitPattern: key.minute), id(key.event), id(key.layout), id(key.item), UInt32(count)]
        }
        let groups = rollup.groups.map { key, count in
            [UInt32(bitPattern: key.minute), id(key.experiment), id(key.group), id(key.event), id(key.layout), UInt32(count)]
        }
        let sketches = rollup.sketches.map { key, sketch in
            ([UInt32(bitPattern: key.hour), id(key.experiment), id(key.group)], sketch.registers)
        }
        out.append(closed ? 1 : 0)
        for value in [rollup.lines, Int(rollup.bytes), Int(rollup.firstMs), Int(rollup.lastMs)] { put64(&out, UInt64(bitPattern: Int64(value))) }
        put32(&out, UInt32(strings.count))
        for string in strings {
            put32(&out, UInt32(string.utf8.count))
            out.append(contentsOf: string.utf8)
        }
        put32(&out, UInt32(counts.count))
        for row in counts { for value in row { put32(&out, value) } }
        put32(&out, UInt32(groups.count))
        for row in groups { for value in row { put32(&out, value) } }
        put32(&out, UInt32(sketches.count))
        for (row, registers) in sketches {
            for value in row { put32(&out, value) }
            out.append(contentsOf: registers)
        }
        put32(&out, checksum(out[...]))
        return out
    }

    /// Reads a rollup back, interning its strings; nil if the file is torn, corrupt or not one.
    static func decode(_ bytes: [UInt8], interner: Interner) -> Contents? {
        guard bytes.count >= magic.count + 4, bytes.starts(with: magic) else { return nil }
        var reader = Reader(bytes: bytes[..<(bytes.count - 4)])
        reader.index = magic.count
        var tail = Reader(bytes: bytes[...])
        tail.index = bytes.count - 4
        guard let stored = tail.u32(), stored == checksum(bytes[..<(bytes.count - 4)]) else { return nil }
        guard let closed = reader.u8(), let lines = reader.u64(), let size = reader.u64(), let first = reader.u64(),
            let last = reader.u64(), let stringCount = reader.u32()
        else { return nil }
        var ids: [UInt32] = []
        for _ in 0..<stringCount {
            guard let length = reader.u32(), let text = reader.string(Int(length)) else { return nil }
            ids.append(ids.isEmpty ? 0 : interner.intern(text))
        }
        func id(_ local: UInt32?) -> UInt32? {
            guard let local, Int(local) < ids.count else { return nil }
            return ids[Int(local)]
        }
        var rollup = Rollup()
        rollup.lines = Int(Int64(bitPattern: lines))
        rollup.bytes = Int64(bitPattern: size)
        rollup.firstMs = Int64(bitPattern: first)
        rollup.lastMs = Int64(bitPattern: last)
        guard let countRows = reader.u32() else { return nil }
        rollup.counts.reserveCapacity(Int(countRows))
        for _ in 0..<countRows {
            guard let minute = reader.u32(), let event = id(reader.u32()), let layout = id(reader.u32()),
                let item = id(reader.u32()), let count = reader.u32()
            else { return nil }
            rollup.counts[CountKey(minute: Int32(bitPattern: minute), event: event, layout: layout, item: item), default: 0] += Int(count)
        }
        guard let groupRows = reader.u32() else { return nil }
        for _ in 0..<groupRows {
            guard let minute = reader.u32(), let experiment = id(reader.u32()), let group = id(reader.u32()),
                let event = id(reader.u32()), let layout = id(reader.u32()), let count = reader.u32()
            else { return nil }
            let key = GroupKey(minute: Int32(bitPattern: minute), experiment: experiment, group: group, event: event, layout: layout)
            rollup.groups[key, default: 0] += Int(count)
        }
        guard let sketchRows = reader.u32() else { return nil }
        for _ in 0..<sketchRows {
            guard let hour = reader.u32(), let experiment = id(reader.u32()), let group = id(reader.u32()),
                let registers = reader.bytes(HyperLogLog.count), let sketch = HyperLogLog(registers: registers)
            else { return nil }
            rollup.sketches[SketchKey(hour: Int32(bitPattern: hour), experiment: experiment, group: group)] = sketch
        }
        guard reader.index == reader.bytes.endIndex else { return nil }
        return Contents(rollup: rollup, closed: closed == 1)
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    static func put32(_ out: inout [UInt8], _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    static func put64(_ out: inout [UInt8], _ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        mutating func u8() -> UInt8? {
            guard index < bytes.endIndex else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func u32() -> UInt32? {
            guard index + 4 <= bytes.endIndex else { return nil }
            var value: UInt32 = 0
            for shift in 0..<4 { value |= UInt32(bytes[index + shift]) << (8 * shift) }
            index += 4
            return value
        }

        mutating func u64() -> UInt64? {
            guard let low = u32(), let high = u32() else { return nil }
            return UInt64(high) << 32 | UInt64(low)
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, index + count <= bytes.endIndex else { return nil }
            defer { index += count }
            return Array(bytes[index..<(index + count)])
        }

        mutating func string(_ count: Int) -> String? {
            guard let raw = bytes(count) else { return nil }
            return String(validating: raw, as: UTF8.self)
        }
    }

    /// Writes `bytes` to `path` through a temporary file and a rename; with `sync`, fsyncs first.
    static func writeAtomically(_ bytes: [UInt8], to path: String, sync: Bool) -> Bool {
        let temporary = path + SegmentName.temporary
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
        let synced = !sync || fsync(fd) == 0
        close(fd)
        guard written.count == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
