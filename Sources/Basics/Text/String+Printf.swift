import Glibc

extension String {
    /// `format` filled in by the C library's printf, in the C locale (a `.` before the decimals):
    /// `String(printf: "%.1f%%", share)`. The server leaves out Foundation's `String(format:)`,
    /// which comes with the whole of Foundation and ICU.
    public init(printf format: String, _ arguments: any CVarArg...) {
        self = Self.printed(format, arguments)
    }

    private static func printed(_ format: String, _ arguments: [any CVarArg]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = Int(withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) })
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix(Swift.max(0, needed)).map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}
