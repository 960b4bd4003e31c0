import CZlib
import Testing
import TestSupport
@testable import MicroHTTP

/// Empty blocks lengthen a raw DEFLATE run to the step without changing what it inflates to:
/// every remainder a run can leave, each checked by zlib's own decoder.
@Suite struct DeflatePaddingTests {
    /// A run of `bytes` ending with a sync flush, as `GzipSplicer.insertion` makes it before padding.
    static func run(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        bytes.withUnsafeBytes { RawDeflate(level: 1, windowBits: -12, memLevel: 6).deflate($0, flush: Z_SYNC_FLUSH, into: &output) }
        return output
    }

    /// A raw DEFLATE run that does not end a stream, inflated: nil when zlib refuses it. Closed
    /// with an empty final fixed block (3 bits and the 7-bit end code) so zlib sees a whole stream.
    static func inflated(_ run: [UInt8]) -> [UInt8]? {
        Decoders.inflated(run + [0x03, 0x00], windowBits: -15)
    }

    @Test(arguments: 0..<64)
    func everyRemainderPadsToTheStepAndInflatesTheSame(shortBy remainder: Int) throws {
        // Runs of growing inserts until one leaves this remainder below a multiple of 64.
        var generator = SplitMix64(state: UInt64(remainder))
        var found: ([UInt8], [UInt8])?
        for _ in 0..<4000 where found == nil {
            let bytes = SplicerTests.page(length: Int.random(in: 1...3000, using: &generator), using: &generator)
            let run = Self.run(bytes)
            if (64 - run.count % 64) % 64 == remainder { found = (bytes, run) }
        }
        var (bytes, run) = try #require(found, "no run left \(remainder) bytes to pad")
        let unpadded = run.count
        DeflatePadding.pad(&run, toMultipleOf: 64)
        #expect(run.count % 64 == 0)
        #expect(run.count - unpadded < 64 + 9, "at most a step more than the remainder")
        #expect(Self.inflated(run) == bytes)
    }

    @Test func anInsertsRunComesInStepsOfLength() {
        var generator = SplitMix64(state: 3)
        for length in [1, 700, 2048, 5000] {
            let bytes = SplicerTests.page(length: length, using: &generator)
            let run = bytes.withUnsafeBytes(GzipSplicer.insertion)
            #expect(run.count % GzipSplicer.runStep == 0)
            #expect(Self.inflated(run) == bytes)
        }
    }
}
