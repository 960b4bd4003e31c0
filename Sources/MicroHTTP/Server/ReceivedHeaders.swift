import CMicroHTTPD

/// A request's headers as libmicrohttpd parsed them, copied into one buffer by the pass that
/// checks the head (`dh_read_head`, or `dh_copy_headers` alone):
/// a look-up compares bytes in place and makes a `String` of the value it finds, so a request
/// costs one allocation for its headers however many it sends, and none is made twice.
/// Every name and value was checked to be UTF-8 when they were read.
struct ReceivedHeaders: Sendable {
    /// Per header: the name's and the value's lengths (two bytes each, little endian), the name, the value.
    private let bytes: Bytes

    /// The copy, its length and what the copy's pass found in one allocation, made for the
    /// request's head: an array made uninitialized went through the standard library's
    /// unspecialised allocation. Written while nothing else holds it, and only read once shared.
    /// Its header is reached through `withUnsafeMutablePointers` only: `ManagedBuffer.header`
    /// is a class's stored property, checked for exclusive access at run time.
    fileprivate struct Bytes: @unchecked Sendable {
        fileprivate struct Header {
            var count = 0
            let capacity: Int
            /// What the copy's pass found (`dh_header_copy`): any byte at or above 0x80, how many
            /// `Cookie` headers and where the first one's value lies, where the first
            /// `Accept-Encoding`, `User-Agent` and `Sec-CH-UA-Mobile` values lie (a count of -1: none).
            var high = false
            var cookies = 0, cookieStart = 0, cookieCount = 0
            var acceptEncodingStart = 0, acceptEncodingCount = -1
            var userAgentStart = 0, userAgentCount = -1
            var mobileHintStart = 0, mobileHintCount = -1
        }
        private final class Storage: ManagedBuffer<Header, UInt8> {}
        private var storage: Storage

        init(capacity: Int) {
            storage = unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in Header(capacity: capacity) },
                                     to: Storage.self)
        }

        var header: Header { storage.withUnsafeMutablePointerToHeader { $0.pointee } }

        mutating func isUniquelyReferenced() -> Bool { isKnownUniquelyReferenced(&storage) }

        var object: AnyObject { storage }

        /// Fills the buffer: `body` gets its memory and capacity and returns the copy's outcome,
        /// with a result.
        func fill<R>(_ body: (UnsafeMutablePointer<UInt8>, Int) -> (copy: dh_header_copy, result: R)) -> R {
            storage.withUnsafeMutablePointers { header, elements in
                let (copy, result) = body(elements, header.pointee.capacity)
                header.pointee.count = copy.used
                header.pointee.high = copy.high != 0
                header.pointee.cookies = Int(copy.cookies)
                header.pointee.cookieStart = copy.cookie_at
                header.pointee.cookieCount = copy.cookie_size
                header.pointee.acceptEncodingStart = copy.accept_encoding_at
                header.pointee.acceptEncodingCount = copy.accept_encoding_size
                header.pointee.userAgentStart = copy.user_agent_at
                header.pointee.userAgentCount = copy.user_agent_size
                header.pointee.mobileHintStart = copy.mobile_hint_at
                header.pointee.mobileHintCount = copy.mobile_hint_size
                return result
            }
        }

        func withBuffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            storage.withUnsafeMutablePointers { header, elements in
                body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
            }
        }

        /// Calls `body` with the two values whose places (start, count) `places` picks from what the
        /// copy's pass found, as the bytes they are in the copy (a count of -1: none, nil).
        func withValues<R>(_ places: (Header) -> ((Int, Int), (Int, Int)),
                           _ body: (UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) -> R) -> R {
            storage.withUnsafeMutablePointers { header, elements in
                let (one, other) = places(header.pointee)
                func value(_ place: (start: Int, count: Int)) -> UnsafeBufferPointer<UInt8>? {
                    place.count < 0 ? nil : UnsafeBufferPointer(start: elements + place.start, count: place.count)
                }
                return body(value(one), value(other))
            }
        }
    }

    /// A header copy's memory kept by a connection for its next request (`RequestState.headerMemory`).
    /// Written again only while nothing else holds it: every request, header and cookie made
    /// over it has gone.
    struct Memory {
        fileprivate var bytes: Bytes

        /// Whether the connection's reference is the only one (false: something kept the last request's headers).
        mutating func isKeptAlone() -> Bool { bytes.isUniquelyReferenced() }
    }

    /// The largest copy a connection keeps for its next request: a browser's head is about 1 KB.
    static let keptMemory = 4096

    /// What `read` found: the headers, the first name (or the name of the first value) that is not
    /// UTF-8, the `Cookie` header (read in place; several are joined by `; `), and the coding the
    /// first `Accept-Encoding` prefers (for the response, found in the same pass).
    /// A tuple, not a struct: the reader takes its parts apart by moving them out, where a
    /// struct's fields were copied out and the struct destroyed (every reference retained and released).
    typealias Reading = (headers: ReceivedHeaders, invalidName: String?, cookies: Cookies, acceptedCoding: ContentCoding)

    private init(bytes: Bytes) { self.bytes = bytes }

    /// The headers as the head's check copied them (`checked`), kept until the request is read:
    /// one reference, so that an optional one is copied and destroyed as a pointer.
    struct Copy {
        fileprivate let bytes: Bytes
    }

    /// Each header takes four bytes in the copy for its ": " and line end in the head; a bare LF or
    /// no space takes fewer, so some room more (and twice the head in the rare case it is not enough).
    private static func capacity(forHead size: Int) -> Int { size + 256 }

    /// Checks the head of `connection` (`dh_read_head`) and copies its headers in the same pass:
    /// the check, and the copy (nil when it did not fit: `read` then copies again, larger).
    /// The copy goes into `memory` (the connection's, which nothing else holds: `RequestState.reset`)
    /// when it is large enough, else into new memory; `kept` is what the connection keeps for its
    /// next request: `memory`, or the new memory when it should replace it. Taken and given back,
    /// not lent: lent, the connection's memory was retained for the call and released after.
    static func checked(_ connection: OpaquePointer, headStart: UnsafePointer<CChar>?, headSize: Int,
                        span: Int, memory: consuming Memory?) -> (check: dh_head_check, copy: Copy?, kept: Memory?) {
        let needed = capacity(forHead: headSize)
        let bytes: Bytes
        var kept = memory
        if let given = kept?.bytes, given.header.capacity >= needed {
            bytes = given
        } else {
            bytes = Bytes(capacity: needed)
            if needed <= keptMemory { kept = Memory(bytes: bytes) }
        }
        let read = bytes.fill { elements, capacity in
            let read = dh_read_head(connection, headStart, headSize, span, elements, capacity)
            return (read.copy, read)
        }
        return (read.check, read.copy.overflow != 0 ? nil : Copy(bytes: bytes), kept)
    }

    /// Every header of `connection`, from the copy the head's check made when there is one.
    static func read(from connection: OpaquePointer, copied: consuming Copy? = nil) -> Reading {
        var copy = copied
        if copy == nil {
            let headSize = dh_request_header_size(connection)
            copy = Self.copy(connection, capacity: capacity(forHead: headSize))
                ?? Self.copy(connection, capacity: 2 * headSize + 256)
        }
        guard let copy else { return (ReceivedHeaders(bytes: Bytes(capacity: 0)), nil, Cookies(), .identity) }
        let headers = ReceivedHeaders(bytes: copy.bytes)
        let found = copy.bytes.header
        // All ASCII and at most one `Cookie`: what the copy's pass found is all there is to read.
        if !found.high, found.cookies <= 1 {
            let acceptedCoding = found.acceptEncodingCount < 0 ? .identity
                : headers.withBytes(in: found.acceptEncodingStart..<found.acceptEncodingStart + found.acceptEncodingCount) {
                    AcceptEncoding.preferred(UnsafeRawBufferPointer($0))
                }
            let cookies = found.cookies == 0 || found.cookieCount == 0 ? Cookies()
                : Cookies(received: headers, range: found.cookieStart..<found.cookieStart + found.cookieCount)
            return (headers, nil, cookies, acceptedCoding)
        }
        let high = found.high
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
        return (headers, invalidName, cookies, acceptedCoding)
    }

    private static var cookieName: UnsafeBufferPointer<UInt8> { bytes("Cookie") }
    private static var acceptEncodingName: UnsafeBufferPointer<UInt8> { bytes("Accept-Encoding") }

    private static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private static func copy(_ connection: OpaquePointer, capacity: Int) -> Copy? {
        let bytes = Bytes(capacity: capacity)
        let copy = bytes.fill { elements, capacity in
            let copy = dh_copy_headers(connection, elements, capacity)
            return (copy, copy)
        }
        return copy.overflow != 0 ? nil : Copy(bytes: bytes)
    }

    /// The object the copy lies in.
    var memory: AnyObject { bytes.object }

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

    /// Calls `body` with the first values of two names (compared case-insensitively), found in one
    /// pass, as the bytes they are in the copy.
    func withFirst<Result>(_ one: String, _ other: String,
                           _ body: (UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        var found: (Range<Int>?, Range<Int>?) = (nil, nil)
        var one = one, other = other
        one.withUTF8 { one in
            other.withUTF8 { other in
                forEach { name, value, start in
                    if found.0 == nil, Headers.equalsIgnoringCase(name, one) {
                        found.0 = start..<start + value.count
                    } else if found.1 == nil, Headers.equalsIgnoringCase(name, other) {
                        found.1 = start..<start + value.count
                    }
                    return found.0 == nil || found.1 == nil
                }
            }
        }
        return bytes.withBuffer { all in
            body(found.0.map { UnsafeBufferPointer(rebasing: all[$0]) }, found.1.map { UnsafeBufferPointer(rebasing: all[$0]) })
        }
    }

    /// Calls `body` with the first `User-Agent` and `Sec-CH-UA-Mobile` values as the bytes they are
    /// in the copy: the copy's pass noted where they lie, so no header is compared again.
    func withUserAgent<Result>(_ body: (UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        bytes.withValues({ (($0.userAgentStart, $0.userAgentCount), ($0.mobileHintStart, $0.mobileHintCount)) }, body)
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
