/// libFuzzer target: ScreenKit's escaping of text and attribute values, and its URL check, on
/// any bytes. Escaped output never holds a raw `<`, `>`, `"` or `'`, and every `&` starts one of
/// the entities the writer emits; a refused URL is written as `#`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var textWriter = HTMLWriter(capacity: 64)
    textWriter.text(text)
    var attributeWriter = HTMLWriter(capacity: 64)
    attributeWriter.attribute("title", text)
    let attribute = attributeWriter.finish()  // ` title="…"`: drop the attribute's own quotes
    let escaped = textWriter.finish() + Array(attribute[8..<(attribute.count - 1)])
    precondition(!escaped.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") },
                 "a raw special character")
    let entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].map { Array($0.utf8) }
    for index in escaped.indices where escaped[index] == UInt8(ascii: "&") {
        precondition(entities.contains { escaped[index...].starts(with: $0) }, "a bare &")
    }
    if !HTMLWriter.isSafeURL(text) { precondition(HTMLWriter.safeURL(text) == HTMLWriter.refusedURL) }
    let lowered = text.lowercased().filter { !$0.isWhitespace && !($0.asciiValue.map { $0 < 0x20 } ?? false) }
    if lowered.hasPrefix("javascript:") { precondition(!HTMLWriter.isSafeURL(text), "javascript: passed") }
    return 0
}
