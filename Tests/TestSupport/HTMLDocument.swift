/// One element of a page read back by `HTMLDocument`.
public final class HTMLElement {
    public let tag: String
    public let attributes: [String: String]
    public internal(set) var children: [HTMLElement] = []
    /// Text directly inside this element (not in its children).
    public internal(set) var ownText = ""
    public internal(set) weak var parent: HTMLElement?

    init(tag: String, attributes: [String: String]) {
        self.tag = tag
        self.attributes = attributes
    }

    public subscript(attribute: String) -> String? { attributes[attribute] }

    /// Every element below this one, depth-first in document order.
    public var descendants: [HTMLElement] { children.flatMap { [$0] + $0.descendants } }

    /// From the parent up to the root.
    public var ancestors: [HTMLElement] {
        var result: [HTMLElement] = []
        var node = parent
        while let current = node { result.append(current); node = current.parent }
        return result
    }

    /// The text of this element and its descendants, whitespace collapsed.
    public var text: String {
        (ownText + children.map(\.text).joined(separator: " "))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    public func all(where predicate: (HTMLElement) -> Bool) -> [HTMLElement] { descendants.filter(predicate) }
    public func first(where predicate: (HTMLElement) -> Bool) -> HTMLElement? { descendants.first(where: predicate) }
    public func all(_ tag: String) -> [HTMLElement] { all { $0.tag == tag } }
    public func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == name }
    }
    public func all(class name: String) -> [HTMLElement] { all { $0.hasClass(name) } }

    /// The nearest enclosing element with `tag`.
    public func closest(_ tag: String) -> HTMLElement? { ancestors.first { $0.tag == tag } }

    /// Elements whose root is the controller `name` (`data-controller="name"`).
    public func controllers(_ name: String) -> [HTMLElement] { all { $0["data-controller"] == name } }

    /// The `data-controller` names from the outermost controller down to this element's own.
    public var controllerPath: [String] {
        ([self] + ancestors).reversed().compactMap { $0["data-controller"] }
    }

    /// Buttons (of any form) with this `name`, optionally with this `value`.
    public func buttons(named name: String, value: String? = nil) -> [HTMLElement] {
        all { $0.tag == "button" && $0["name"] == name && (value == nil || $0["value"] == value) }
    }

    /// The button whose visible text (or accessible label) is `label`.
    public func button(labelled label: String) -> HTMLElement? {
        first { $0.tag == "button" && ($0.text == label || $0["aria-label"] == label) }
    }
}

/// A small reader for the HTML the app writes: double-quoted or bare attributes, void elements,
/// `/>`, and the five entities ScreenKit emits. Not a general HTML parser: it throws on
/// unbalanced tags, which also proves the page is well nested.
public enum HTMLDocument {
    public enum ParseError: Error, CustomStringConvertible {
        case unterminatedTag, mismatched(expected: String, found: String), unclosed(String), badAttribute
        public var description: String { "\(self)" }
    }

    static let voidTags: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input",
                                         "link", "meta", "source", "track", "wbr"]

    /// Parses `html` under a synthetic `#root` element.
    public static func parse(_ html: String) throws -> HTMLElement {
        let bytes = Array(html.utf8)
        let root = HTMLElement(tag: "#root", attributes: [:])
        var current = root
        var index = 0
        while index < bytes.count {
            guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else {
                current.ownText += decode(bytes[index...])
                break
            }
            current.ownText += decode(bytes[index..<open]) + " "
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

    private static func parseTag(_ body: ArraySlice<UInt8>) throws -> HTMLElement {
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
        return HTMLElement(tag: String(decoding: name, as: UTF8.self).lowercased(), attributes: attributes)
    }

    static let entities: [(name: [UInt8], value: UInt8)] = [
        (Array("&amp;".utf8), UInt8(ascii: "&")), (Array("&lt;".utf8), UInt8(ascii: "<")),
        (Array("&gt;".utf8), UInt8(ascii: ">")), (Array("&quot;".utf8), UInt8(ascii: "\"")),
        (Array("&#39;".utf8), UInt8(ascii: "'")),
    ]

    /// Whether the bytes at `index` start one of the five entities ScreenKit writes.
    public static func entity(in bytes: ArraySlice<UInt8>, at index: Int) -> (name: [UInt8], value: UInt8)? {
        entities.first { bytes[index...].starts(with: $0.name) }
    }

    /// Decodes the five entities ScreenKit writes; any other `&` stays as it is.
    public static func decode(_ bytes: ArraySlice<UInt8>) -> String {
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
    public static func decode(_ text: String) -> String { decode(Array(text.utf8)[...]) }
}
