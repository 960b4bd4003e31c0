import CDeflate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Inflates whole gzip members of one compressed segment, each read with one `pread` and
/// inflated in one call: its sizes are in the index, so no stream state is needed between them.
final class MemberReader {
    private let index: GzipIndex
    private let path: String
    private let fd: Int32
    private let decompressor: OpaquePointer
    private var compressed: [UInt8] = []

    init(index: GzipIndex, path: String) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScanError(code: errno).at(path) }
        guard let decompressor = libdeflate_alloc_decompressor() else {
            close(fd)
            throw ScanError(code: ENOMEM)
        }
        self.index = index
        self.path = path
        self.decompressor = decompressor
    }

    deinit {
        libdeflate_free_decompressor(decompressor)
        close(fd)
    }

    /// The lines of member `number`, uncompressed.
    func read(_ number: Int) throws -> [UInt8] {
        let (start, next) = (index.members[number], index.members[number + 1])
        let size = Int(next.compressed - start.compressed)
        let length = Int(next.uncompressed - start.uncompressed)
        if compressed.count < size { compressed = [UInt8](repeating: 0, count: size) }
        let got = try naming(path) {
            try compressed.withUnsafeMutableBytes { try readFully(fd, UnsafeMutableRawBufferPointer(rebasing: $0[..<size]), at: start.compressed) }
        }
        guard got == size else {
            throw ScanError.damaged("truncated: gzip member \(number) ends past the end of the file").at(path)
        }
        var bytes = [UInt8](repeating: 0, count: length)
        var produced = 0
        let result = compressed.withUnsafeBytes { input in
            bytes.withUnsafeMutableBytes { output in
                libdeflate_gzip_decompress(decompressor, input.baseAddress, size, output.baseAddress, length, &produced)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, produced == length else {
            throw ScanError.damaged("corrupt gzip data: member \(number) does not inflate").at(path)
        }
        return bytes
    }
}
