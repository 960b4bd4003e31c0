import Basics
import Testing

/// The stable hash decides experiment groups and rollouts and fills the visitor sketches kept on
/// disk: its values are pinned, so a change to it cannot pass unnoticed.
@Suite struct StableHashTests {
    @Test func fnv1aMatchesItsTestVectors() {
        #expect(StableHash.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func knownVisitorsKeepTheirHashes() {
        #expect(StableHash.hash("visitor-1") == 0xfc1f_761e_d37d_2af6)
        #expect(StableHash.hash("v-42") == 0xb53f_4b5b_9071_5554)
        #expect(StableHash.hash("é-visitor") == 0x3f3a_40e0_57b2_b817)
        #expect(StableHash.hash("") == 0xefd0_1f60_ba99_2926)
    }

    @Test func knownVisitorsKeepTheirPlaceInARollout() {
        #expect(StableHash.unitInterval("visitor-1") == 0.9848550629862883)
        #expect(StableHash.unitInterval("v-42") == 0.707997045378254)
        #expect(StableHash.unitInterval("é-visitor") == 0.24698262669671578)
    }

    @Test func bytesHashAsTheirString() {
        let bytes = Array("é-visitor".utf8)
        #expect(bytes.withUnsafeBytes { StableHash.mix(StableHash.fnv1a($0)) } == StableHash.hash("é-visitor"))
    }
}
