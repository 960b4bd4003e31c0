/// Appends HTML as UTF-8 into one growing byte buffer; the hot path of every page.
///
/// Static fragments go in as-is; anything built from data goes through `text(_:)` or
/// `attribute(_:_:)`, which escape `& < > " '`. There is no node tree: markup is written in order.
public struct HTMLWriter {
    /// Default capacity reserved up front, enough for a typical page without regrowth.
    public static let defaultCapacity = 32 * 1024

    /// Bytes `0..<count` are the page; the rest is zeroed room that writes copy into directly,
    /// which is much faster than `Array.append(contentsOf:)` for many short fragments.
    @usableFromInline var storage: [UInt8]
    @usableFromInline var count = 0
    /// Where per-visitor tokens were written, so a cached page can be re-filled for another visitor.
    public private(set) var tokenHoles: [Range<Int>] = []
    /// Where bytes that differ per visitor may be inserted (the home's own rows), so a cached
    /// page can take them there for another visitor.
    public private(set) var slots: [Int] = []

    /// Creates a writer whose buffer holds `capacity` bytes before it has to grow.
    public init(capacity: Int = HTMLWriter.defaultCapacity) {
        storage = [UInt8](repeating: 0, count: max(capacity, 256))
    }

    /// Number of bytes written so far.
    public var byteCount: Int { count }

    /// Writes a per-visitor token (an attribute value already known to be safe to splice)
    /// and remembers where it went.
    public mutating func token(_ value: String) {
        let start = count
        text(value)
        tokenHoles.append(start..<count)
    }

    /// Remembers the current end of the page as a place where per-visitor bytes go.
    public mutating func markSlot() { slots.append(count) }

    /// Ends writing and hands the buffer over without copying it (it shrinks in place).
    public consuming func finish() -> [UInt8] {
        var bytes = storage
        storage = []  // leave `bytes` the only reference, so trimming it cannot copy
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Copies `length` bytes from `source` to the end of the page.
    @inlinable
    mutating func append(_ source: UnsafePointer<UInt8>, length: Int) {
        let offset = count
        if offset + length > storage.count { grow(toFit: length) }
        storage.withUnsafeMutableBufferPointer { target in
            (target.baseAddress.unsafelyUnwrapped + offset).update(from: source, count: length)
        }
        count = offset + length
    }

    /// Appends one byte.
    @inlinable
    mutating func append(_ byte: UInt8) {
        if count == storage.count { grow(toFit: 1) }
        storage[count] = byte
        count += 1
    }

    /// At least doubles the room, so appends stay amortised O(1).
    @usableFromInline
    mutating func grow(toFit length: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(storage.count, length)))
    }

    /// Appends a trusted static fragment (markup written in the source code) as-is.
    @inlinable
    public mutating func write(_ fragment: StaticString) {
        if fragment.hasPointerRepresentation {
            append(fragment.utf8Start, length: fragment.utf8CodeUnitCount)
        } else {
            fragment.withUTF8Buffer { append($0.baseAddress.unsafelyUnwrapped, length: $0.count) }
        }
    }

    /// Appends `count` spaces (whitespace between tags, which the page does not show).
    public mutating func spaces(_ count: Int) {
        for _ in 0..<max(count, 0) { append(UInt8(ascii: " ")) }
    }

    /// Appends a decimal integer (safe in any context).
    public mutating func write(_ number: Int) {
        if number < 0 { append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = count
        repeat {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        storage[start..<count].reverse()
    }

    /// Appends text content from data, escaped.
    public mutating func text(_ value: String) {
        appendEscaped(value)
    }

    /// Appends ` name="value"` with the value escaped for a double-quoted attribute.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        name.withUTF8Buffer { appendEscaped(value, attribute: $0) }
    }

    /// Appends ` name="value"` for an integer value.
    public mutating func attribute(_ name: StaticString, _ value: Int) {
        append(UInt8(ascii: " "))
        write(name)
        write("=\"")
        write(value)
        append(UInt8(ascii: "\""))
    }

    /// Appends `<option value="…">text</option>`, selected when `selected` is true.
    public mutating func option(_ value: String, text: String, selected: Bool) {
        write("<option")
        attribute("value", value)
        attribute("selected", if: selected)
        write(">")
        self.text(text)
        write("</option>")
    }

    /// Appends `<input type="hidden" name="…" value="…">`, both escaped: a form's carried field.
    public mutating func hiddenField(_ name: String, _ value: String) {
        write("<input type=\"hidden\"")
        attribute("name", name)
        attribute("value", value)
        write(">")
    }

    /// Appends `<input type="hidden" name="…" value="…">` for an integer value.
    public mutating func hiddenField(_ name: String, _ value: Int) {
        hiddenField(name, String(value))
    }

    /// Appends ` name` (a boolean attribute) when `present` is true.
    public mutating func attribute(_ name: StaticString, if present: Bool) {
        guard present else { return }
        append(UInt8(ascii: " "))
        write(name)
    }
}
