/// Appends HTML as UTF-8 into one growing byte buffer; the hot path of every page.
///
/// Static fragments go in as-is; anything built from data goes through `text(_:)` or
/// `attribute(_:_:)`, which escape `& < > " '`. There is no node tree: markup is written in order.
public struct HTMLWriter {
    /// Default capacity reserved up front, enough for a typical page without regrowth.
    public static let defaultCapacity = 32 * 1024

    @usableFromInline var buffer: [UInt8]

    /// Creates a writer whose buffer reserves `capacity` bytes.
    public init(capacity: Int = HTMLWriter.defaultCapacity) {
        buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// Number of bytes written so far.
    public var byteCount: Int { buffer.count }

    /// Ends writing and hands the buffer over without copying it.
    public consuming func finish() -> [UInt8] {
        buffer
    }

    /// Appends a trusted static fragment (markup written in the source code) as-is.
    @inlinable
    public mutating func write(_ fragment: StaticString) {
        if fragment.hasPointerRepresentation {
            buffer.append(contentsOf: UnsafeBufferPointer(start: fragment.utf8Start,
                                                          count: fragment.utf8CodeUnitCount))
        } else {
            fragment.withUTF8Buffer { buffer.append(contentsOf: $0) }
        }
    }

    /// Appends a decimal integer (safe in any context).
    public mutating func write(_ number: Int) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[start...].reverse()
    }

    /// Appends text content from data, escaped.
    public mutating func text(_ value: String) {
        appendEscaped(value)
    }

    /// Appends ` name="value"` with the value escaped for a double-quoted attribute.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        buffer.append(UInt8(ascii: " "))
        write(name)
        write("=\"")
        appendEscaped(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends ` name="value"` for an integer value.
    public mutating func attribute(_ name: StaticString, _ value: Int) {
        buffer.append(UInt8(ascii: " "))
        write(name)
        write("=\"")
        write(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends ` name` (a boolean attribute) when `present` is true.
    public mutating func attribute(_ name: StaticString, if present: Bool) {
        guard present else { return }
        buffer.append(UInt8(ascii: " "))
        write(name)
    }
}
