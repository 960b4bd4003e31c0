/// libFuzzer target: `CookieParser` on any header text. Beyond not crashing, the result stays
/// bounded, holds only names a cookie can have, and a lookup by name finds what `parse` found.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let header = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let cookies = CookieParser.parse(header)
    precondition(cookies.count <= CookieParser.maximumCount, "more cookies than the bound")
    for name in cookies.keys {
        precondition(!name.isEmpty && !name.utf8.contains { $0 <= 0x20 || $0 == 0x3B || $0 == 0x3D }, "bad name \(name)")
        precondition(CookieParser.value(of: name, in: header) == cookies[name], "lookup differs for \(name)")
    }
    return 0
}
