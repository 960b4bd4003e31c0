/// libFuzzer target: `PathDecoding.segments`, `percentDecode` and `hasWellFormedEscapes` on any
/// bytes, with the properties the server relies on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let path = String(decoding: bytes, as: UTF8.self)
    if let segments = PathDecoding.segments(of: Substring(path)) {
        // One segment per raw `/` (escaped slashes stay inside theirs); `/` alone has none.
        if path.hasPrefix("/"), path != "/" {
            precondition(segments.count == path.utf8.filter { $0 == UInt8(ascii: "/") }.count, "segments lost or made")
        }
        for segment in segments where segment == ".." { precondition(PathDecoding.isTraversal(segment)) }
    }
    let decoded = PathDecoding.percentDecode(bytes)
    if !bytes.contains(UInt8(ascii: "%")) {
        precondition(decoded == String(validating: bytes, as: UTF8.self), "unescaped text changed")
    }
    // What the query check lets through never decodes to a NUL that was not sent as one.
    if PathDecoding.hasWellFormedEscapes(bytes), !bytes.contains(0), let decoded {
        precondition(!decoded.utf8.contains(0), "an escaped NUL passed the check")
    }
    return 0
}
