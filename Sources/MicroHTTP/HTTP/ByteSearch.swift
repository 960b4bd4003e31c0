import Glibc

extension UnsafeBufferPointer<UInt8> {
    /// The offset of the first `byte` within `range`, found with `memchr`: request decoding scans
    /// every target and cookie header, and a slice's `firstIndex(of:)` steps byte by byte.
    func firstOffset(of byte: UInt8, in range: Range<Int>) -> Int? {
        guard let base = baseAddress, !range.isEmpty else { return nil }
        return memchr(base + range.lowerBound, Int32(byte), range.count)
            .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
    }
}
