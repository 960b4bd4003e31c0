import CMicroHTTPD

/// Keeps a response body alive while libmicrohttpd sends it straight from the array's storage,
/// so a rendered page reaches the socket without another copy. The array is never mutated
/// while boxed, so its heap storage stays where it is.
final class ResponseBytes {
    let bytes: [UInt8]
    /// A second array a spliced body's pieces also point into.
    let filling: [UInt8]

    init(_ bytes: [UInt8], filling: [UInt8] = []) {
        self.bytes = bytes
        self.filling = filling
    }

    var pointer: UnsafeMutableRawPointer { Self.address(of: bytes) }

    /// The pieces of `body`, pointing into the boxed arrays.
    func vector(for body: SplicedBody) -> [MHD_IoVec] {
        let base = UnsafeRawPointer(Self.address(of: bytes)), filling = UnsafeRawPointer(Self.address(of: self.filling))
        return body.pieces.map { piece in
            switch piece {
            case .base(let range): MHD_IoVec(iov_base: base + range.lowerBound, iov_len: range.count)
            case .filling: MHD_IoVec(iov_base: filling, iov_len: self.filling.count)
            }
        }
    }

    private static func address(of array: [UInt8]) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(mutating: array.withUnsafeBytes { $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)! })
    }
}
