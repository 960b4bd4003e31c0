#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Little-endian integers at byte offsets of an index file, wherever its bytes are.
protocol IndexBytes {
    var count: Int { get }
    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T
    /// A hint that the bytes from `offset` on are read next.
    func prefetch(_ offset: Int)
}

extension IndexBytes {
    func prefetch(_ offset: Int) {}
}

extension UnsafeRawBufferPointer: IndexBytes {
    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
