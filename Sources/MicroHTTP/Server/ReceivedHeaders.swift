import CMicroHTTPD

/// A request's headers as libmicrohttpd parsed them, copied into one buffer by the pass that
/// checks the head (`dh_read_head`, or `dh_copy_headers` alone):
/// a look-up compares bytes in place and makes a `String` of the value it finds, so a request
/// costs one allocation for its headers however many it sends, and none is made twice.
/// Every name and value was checked to be UTF-8 when they were read.
struct ReceivedHeaders: Sendable {
    /// Per header: the name's and the value's lengths (two bytes each, little endian), the name, the value.
    private let bytes: Bytes

    /// The copy and its length in one allocation, made for the request's head: an array made
    /// uninitialized went through the standard library's unspecialised allocation. Written once,
    /// before it is shared, and only read afterwards.
    fileprivate struct Bytes: @unchecked Sendable {
        private final class Storage: ManagedBuffer<Int, UInt8> {}
        private let storage: Storage

        init(capacity: Int) {
            storage = unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in 0 }, to: Storage.self)
        }

        /// Fills the buffer: `body` gets its memory and returns how many bytes it wrote, with a result.
        func fill<R>(_ body: (UnsafeMutablePointer<UInt8>) -> (count: Int, result: R)) -> R {
            storage.withUnsafeMutablePointers { count, elements in
                let (written, result) = body(elements)
                count.pointee = written
                return result
            }
        }

        func withBuffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            storage.withUnsafeMutablePointers { count, elements in body(UnsafeBufferPointer(start: elements, count: count.pointee)) }
        }
    }

    /// What `read` found: the headers, the first name (or the name of the first value) that is not
    /// UTF-8, the `Cookie` header (read in place; several are joined by `; `), and the coding the
    /// first `Accept-Encoding` prefers (for the response, found in the same pass).
    struct Reading {
        var headers: ReceivedHeaders
        var invalidName: String?
        var cookies = Cookies()
        var acceptedCoding = ContentCoding.identity
    }

    private init(bytes: Bytes) { self.bytes = bytes }

    /// The headers as the head's check copied them (`checked`), kept until the request is read.
    struct Copy {
        fileprivate let bytes: Bytes
        fileprivate let high: Bool
    }

    /// Each header takes four bytes in the copy for its ": " and line end in the head; a bare LF or
    /// no space takes fewer, so some room more (and twice the head in the rare case it is not enough).
    private static func capacity(forHead size: Int) -> Int { size + 256 }

    /// Checks the head of `connection` (`dh_read_head`) and copies its headers in the same pass:
    /// the check, and the copy (nil when it did not fit: `read` then copies again, larger).
    static func checked(_ connection: OpaquePointer, headStart: UnsafePointer<CChar>?, headSize: Int,
                        span: Int) -> (check: dh_head_check, copy: Copy?) {
        let bytes = Bytes(capacity: capacity(forHead: headSize))
        let read = bytes.fill { elements in
            let read = dh_read_head(connection, headStart, headSize, span, elements, capacity(forHead: headSize))
            return (read.copy.used, read)
        }
        return (read.check, read.copy.overflow != 0 ? nil : Copy(bytes: bytes, high: read.copy.high != 0))
    }

    /// Every header of `connection`, from the copy the head's check made when there is one.
    static func read(from connection: OpaquePointer, copied: Copy? = nil) -> Reading {
        var copy = copied
        if copy == nil {
            let headSize = dh_request_header_size(connection)
            copy = Self.copy(connection, capacity: capacity(forHead: headSize))
                ?? Self.copy(connection, capacity: 2 * headSize + 256)
        }
        let (bytes, high) = copy.map { ($0.bytes, $0.high) } ?? (Bytes(capacity: 0), false)
        let headers = ReceivedHeaders(bytes: bytes)
        // Gathered apart and made into a `Reading` once: one changed in the loop was copied out
        // (every reference in it retained and released).
        var invalidName: String?
        var acceptedCoding = ContentCoding.identity
        var sawAcceptEncoding = false
        // The one `Cookie` header's place in the copy; a second one joins them into a string.
        var cookie: Range<Int>?
        var joined: String?
        headers.forEach { name, value, offset in
            if high {
                guard let text = String(validating: name, as: UTF8.self) else {
                    invalidName = String(decoding: name, as: UTF8.self)
                    return false
                }
                guard String(validating: value, as: UTF8.self) != nil else {
                    invalidName = text
                    return false
                }
            }
            if Headers.equalsIgnoringCase(name, Self.cookieName) {
                if let first = cookie {
                    let earlier = joined ?? headers.withBytes(in: first) { String(decoding: $0, as: UTF8.self) }
                    let text = String(decoding: value, as: UTF8.self)
                    joined = earlier.isEmpty ? text : earlier + "; " + text
                } else {
                    cookie = offset..<offset + value.count
                }
            } else if !sawAcceptEncoding, Headers.equalsIgnoringCase(name, Self.acceptEncodingName) {
                sawAcceptEncoding = true
                acceptedCoding = AcceptEncoding.preferred(UnsafeRawBufferPointer(value))
            }
            return true
        }
        let cookies = if let joined {
            Cookies(header: joined)
        } else if let cookie, !cookie.isEmpty {
            Cookies(received: headers, range: cookie)
        } else {
            Cookies()
        }
        return Reading(headers: headers, invalidName: invalidName, cookies: cookies, acceptedCoding: acceptedCoding)
    }

    private static var cookieName: UnsafeBufferPointer<UInt8> { bytes("Cookie") }
    private static var acceptEncodingName: UnsafeBufferPointer<UInt8> { bytes("Accept-Encoding") }

    private static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private static func copy(_ connection: OpaquePointer, capacity: Int) -> Copy? {
        let bytes = Bytes(capacity: capacity)
        let copy = bytes.fill { elements in
            let copy = dh_copy_headers(connection, elements, capacity)
            return (copy.used, copy)
        }
        return copy.overflow != 0 ? nil : Copy(bytes: bytes, high: copy.high != 0)
    }

    /// Calls `body` with each header's name and value, in order, until it returns false.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        forEach { name, value, _ in body(name, value) }
    }

    /// Calls `body` with the bytes at `range` of the copy (a value's, from `forEach`).
    func withBytes<Result>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withBuffer { all in body(UnsafeBufferPointer(rebasing: all[range])) }
    }

    /// `forEach` with where each value starts in the copy.
    private func forEach(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, Int) -> Bool) {
        bytes.withBuffer { all in
            guard let base = all.baseAddress else { return }
            var at = 0
            while at + 4 <= all.count {
                let nameCount = Int(all[at]) | Int(all[at + 1]) << 8
                let valueCount = Int(all[at + 2]) | Int(all[at + 3]) << 8
                let name = UnsafeBufferPointer(start: base + at + 4, count: nameCount)
                let value = UnsafeBufferPointer(start: base + at + 4 + nameCount, count: valueCount)
                guard body(name, value, at + 4 + nameCount) else { return }
                at += 4 + nameCount + valueCount
            }
        }
    }

    /// Every header as strings, in order.
    var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        forEach { name, value in
            fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            return true
        }
        return fields
    }

    /// The values of the headers called `name` (compared case-insensitively), up to `limit` of them.
    func values(_ name: String, limit: Int = .max) -> [String] {
        var found: [String] = []
        var wanted = name
        wanted.withUTF8 { wanted in
            forEach { name, value in
                if Headers.equalsIgnoringCase(name, wanted) { found.append(String(decoding: value, as: UTF8.self)) }
                return found.count < limit
            }
        }
        return found
    }
}
