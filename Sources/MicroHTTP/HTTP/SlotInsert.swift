import Synchronization

/// Bytes a response inserts at its template's slot (a visitor's own rows), with what the gzip
/// splice needs of them: their raw DEFLATE run and their CRC-32, each made once, the first time
/// a gzip response asks. An app that keeps an insert for a visitor's next requests sends it
/// again without drawing or compressing it again.
public final class SlotInsert: Sendable {
    public let bytes: [UInt8]
    private let deflated = LazyReference<Deflated>()

    /// What a gzip response of the insert takes: `GzipSplicer.insertion` of the bytes and their CRC.
    final class Deflated: Sendable {
        let run: [UInt8]
        let crc: UInt32

        init(_ bytes: [UInt8]) {
            run = bytes.withUnsafeBytes(GzipSplicer.insertion)
            crc = bytes.withUnsafeBytes { Gzip.crc32(0, $0) }
        }
    }

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    /// The insert's gzip pieces, made now if no response made them before.
    var gzip: Deflated {
        if let made = deflated.load() { return made }
        return deflated.storeIfNil(Deflated(bytes))
    }

    /// Whether the gzip pieces are made: for tests that a kept insert is not compressed again.
    public var isDeflated: Bool { deflated.load() != nil }

    /// The memory the insert holds, for a cache's budget.
    public var footprint: Int { bytes.count + (deflated.load()?.run.count ?? bytes.count / 4) + 96 }
}
