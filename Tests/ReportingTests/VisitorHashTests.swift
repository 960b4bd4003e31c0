import Testing
@testable import Reporting

/// Visitor sketches and filters are written to disk: the hashes they hold must not change.
@Suite struct VisitorHashTests {
    @Test func theVisitorFilterHashKeepsItsValues() {
        func filterHash(_ visitor: String) -> UInt64 { Array(visitor.utf8).withUnsafeBytes { MemberFilter.hash($0) } }
        #expect(filterHash("visitor-1") == 0x7caa_d5c7_525a_5f03)
        #expect(filterHash("v-42") == 0x466b_177d_d128_a403)
        #expect(filterHash("") == 0xecba_3df2_c338_3c52)
    }
}
