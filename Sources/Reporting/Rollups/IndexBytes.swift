#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Little-endian integers at byte offsets of an index file, wherever its bytes are.
protocol IndexBytes {
    var count: Int { get }
    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T
}

extension UnsafeRawBufferPointer: IndexBytes {
    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
