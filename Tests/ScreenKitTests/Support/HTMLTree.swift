import ScreenKit

/// A deliberately small HTML parser for reading back what ScreenKit wrote: double-quoted or bare
/// attributes, void elements, `/>`, entities that ScreenKit emits. Not a general HTML parser.
final class Element {
    let tag: String
    var attributes: [String: String]
    var children: [Element] = []
    var text = ""
    weak var parent: Element?

    init(tag: String, attributes: [String: String]) {
        self.tag = tag
        self.attributes = attributes
    }

    /// All elements below this one, depth-first in document order.
    var descendants: [Element] { children.flatMap { [$0] + $0.descendants } }

    /// Elements from the parent up to the root.
    var ancestors: [Element] {
        var result: [Element] = []
        var node = parent
        while let current = node { result.append(current); node = current.parent }
        return result
    }

    /// Text content of this element and its descendants.
    var allText: String { text + children.map(\.allText).joined() }

    func first(where predicate: (Element) -> Bool) -> Element? { descendants.first(where: predicate) }
    func all(_ tag: String) -> [Element] { descendants.filter { $0.tag == tag } }
    func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == name }
    }
}

/// Works on UTF-8 bytes, since every bit of syntax is ASCII and Character-level matching would let
/// combining marks or prepend characters glue onto `<`, `&` or `"`.
enum HTMLTree {
    static let voidTags: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input",
                                         "link", "meta", "source", "track", "wbr"]

    enum ParseError: Error { case unterminatedTag, mismatched(expected: String, found: String), unclosed(String), badAttribute }

    /// Parses `html` under a synthetic `#root` element; throws on unbalanced tags.
    static func parse(_ html: String) throws -> Element {
        let bytes = Array(html.utf8)
        let root = Element(tag: "#root", attributes: [:])
        var current = root
        var index = 0
        while index < bytes.count {
            guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else {
                current.text += decode(bytes[index...])
                break
            }
            current.text += decode(bytes[index..<open])
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { throw ParseError.unterminatedTag }
            let body = bytes[(open + 1)..<close]
            index = close + 1
            if body.first == UInt8(ascii: "!") { continue }
            if body.first == UInt8(ascii: "/") {
                let name = String(decoding: body.dropFirst(), as: UTF8.self).lowercased()
                guard current.tag == name, let parent = current.parent else {
                    throw ParseError.mismatched(expected: current.tag, found: name)
                }
                current = parent
                continue
            }
            let selfClosing = body.last == UInt8(ascii: "/")
            let element = try parseTag(selfClosing ? body.dropLast() : body)
            element.parent = current
            current.children.append(element)
            if !selfClosing && !voidTags.contains(element.tag) { current = element }
        }
        guard current === root else { throw ParseError.unclosed(current.tag) }
        return root
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    private static func parseTag(_ body: ArraySlice<UInt8>) throws -> Element {
        var rest = body
        let name = rest.prefix { !isSpace($0) }
        rest = rest.dropFirst(name.count)
        var attributes: [String: String] = [:]
        while true {
            rest = rest.drop(while: isSpace)
            guard !rest.isEmpty else { break }
            let key = rest.prefix { !isSpace($0) && $0 != UInt8(ascii: "=") }
            rest = rest.dropFirst(key.count)
            var value = ""
            if rest.first == UInt8(ascii: "=") {
                rest = rest.dropFirst()
                guard rest.first == UInt8(ascii: "\""), let end = rest.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else {
                    throw ParseError.badAttribute
                }
                value = decode(rest[(rest.startIndex + 1)..<end])
                rest = rest[(end + 1)...]
            }
            attributes[String(decoding: key, as: UTF8.self)] = value
        }
        return Element(tag: String(decoding: name, as: UTF8.self).lowercased(), attributes: attributes)
    }

    static let entities: [(name: [UInt8], value: UInt8)] = [
        (Array("&amp;".utf8), UInt8(ascii: "&")), (Array("&lt;".utf8), UInt8(ascii: "<")),
        (Array("&gt;".utf8), UInt8(ascii: ">")), (Array("&quot;".utf8), UInt8(ascii: "\"")),
        (Array("&#39;".utf8), UInt8(ascii: "'")),
    ]

    /// Whether the bytes at `index` start one of the five entities ScreenKit writes.
    static func entity(in bytes: ArraySlice<UInt8>, at index: Int) -> (name: [UInt8], value: UInt8)? {
        entities.first { bytes[index...].starts(with: $0.name) }
    }

    /// Decodes the five entities ScreenKit writes; any other `&` stays as it is.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var output: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "&"), let entity = entity(in: bytes, at: index) {
                output.append(entity.value)
                index += entity.name.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes entities in a string.
    static func decode(_ text: String) -> String { decode(Array(text.utf8)[...]) }
}

/// Renders `controller` on its own and returns the HTML.
func renderHTML(_ controller: ViewController, csrf: String = "token-123") -> String {
    var writer = HTMLWriter()
    controller.render(into: &writer, context: RenderContext(csrfToken: csrf))
    return String(decoding: writer.finish(), as: UTF8.self)
}

/// Renders `controller` and parses the result.
func renderTree(_ controller: ViewController, csrf: String = "token-123") throws -> Element {
    try HTMLTree.parse(renderHTML(controller, csrf: csrf))
}

/// The `data-controller` elements in document order.
func controllerElements(in root: Element) -> [Element] {
    root.descendants.filter { $0.attributes["data-controller"] != nil }
}
