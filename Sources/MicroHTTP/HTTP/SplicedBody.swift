/// A template's bytes with this response's value in every hole: a cached page with this
/// visitor's token. The server sends it from a reused copy of the template with only the holes
/// rewritten; a filling of another length than the holes is written out whole instead.
public struct SplicedBody: Sendable {
    public let template: SplicedBytes
    public let filling: SplicedFilling

    public init(template: SplicedBytes, filling: SplicedFilling) {
        self.template = template
        self.filling = filling
    }

    /// A body over a template of its own (no copies to reuse): for one-off bodies and tests.
    public init(base: [UInt8], holes: [Range<Int>], filling: SplicedFilling) {
        self.init(template: SplicedBytes(base: base, holes: holes), filling: filling)
    }

    /// The length of the body.
    public var count: Int {
        template.base.count - template.holes.reduce(0) { $0 + $1.count } + template.holes.count * filling.count
    }

    /// Writes the body into `buffer`, which holds exactly `count` bytes: the base between the
    /// holes, the filling in each.
    func write(into buffer: UnsafeMutableRawBufferPointer) {
        var at = 0
        func append(_ bytes: UnsafeRawBufferPointer) {
            UnsafeMutableRawBufferPointer(rebasing: buffer[at..<at + bytes.count]).copyMemory(from: bytes)
            at += bytes.count
        }
        template.base.withUnsafeBytes { base in
            filling.withUnsafeBytes { filling in
                var start = 0
                for hole in template.holes {
                    append(UnsafeRawBufferPointer(rebasing: base[start..<hole.lowerBound]))
                    append(filling)
                    start = hole.upperBound
                }
                append(UnsafeRawBufferPointer(rebasing: base[start...]))
            }
        }
    }

    /// The body as one array (for tests and for anything that wants the bytes).
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            write(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = buffer.count
        }
    }
}
