import CMicroHTTPD

/// Keeps a response body alive while libmicrohttpd sends it straight from the array's storage,
/// so a rendered page reaches the socket without another copy. The array is never mutated
/// while boxed, so its heap storage stays where it is.
final class ResponseBytes {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var pointer: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(mutating: bytes.withUnsafeBytes { $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)! })
    }
}
