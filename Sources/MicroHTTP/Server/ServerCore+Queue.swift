import Basics
import CMicroHTTPD
import Glibc

extension ServerCore {
    /// Headers every HTML page carries: no inline script, no framing, no MIME sniffing.
    static let htmlSecurityHeaders: [(StaticString, StaticString)] = [
        ("Content-Security-Policy",
         "default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"),
        ("Referrer-Policy", "same-origin"),
    ]

    static let requestIDHeader: StaticString = "X-Request-Id"

    /// Hands `response` to libmicrohttpd: a byte body without copying, a spliced one from a reused
    /// copy of its template (with the response built over it last time), with or without an
    /// insert, a file through sendfile.
    /// A compressible body goes in the coding the client prefers: a spliced page from its
    /// template's compressed form when it has one, anything else compressed on the spot.
    func queue(_ response: Response, for context: RequestState, on connection: OpaquePointer) -> MHD_Result {
        let status = UInt32(response.status.rawValue)
        context.status = Int(status)
        let varies = response.isCompressible
        var coding = varies ? context.acceptedCoding ?? acceptedCoding(connection) : .identity
        // The body's case is bound once: each binding of a spliced body copied it (three references
        // retained and released).
        switch response.body {
        case .spliced(let body):
            context.bytesOut = body.count
            var copy: SplicedCopy?
            if body.inserted != nil {
                // Bytes of their own at the slot. The gzip form compresses them; the brotli form
                // carries them as they are (padded to its length), which makes it the larger: a
                // client that takes gzip too gets gzip.
                if coding == .brotli, acceptedCoding(connection, brotli: false) == .gzip { coding = .gzip }
                copy = body.leaseInserting(coding)
            } else if coding == .identity {
                // Leased from the body's own template, borrowed: bound to a name, it was retained.
                copy = body.spliced.lease(filling: body.filling)
            } else if let spliced = body.spliced.encoded(coding) {
                copy = spliced.lease(filling: body.filling)
            }
            if let copy {
                // Given back when the request completes: the connection reads the copy until then.
                context.lentCopy = copy
                let encoding = Encoding(coding: coding, varies: varies)
                guard let handle = prepare(copy, for: response, encoding: encoding, id: context.requestID) else {
                    return refused(response)
                }
                return MHD_queue_response(connection, status, handle)
            }
        case .bytes(let bytes): context.bytesOut = bytes.count
        default: break
        }
        guard let (handle, sent) = makeHandle(response.body, coding, connection) else { return refused(response) }
        defer { MHD_destroy_response(handle) }
        addHeaders(of: response, encoding: Encoding(coding: sent, varies: varies), id: context.requestID, to: handle)
        return MHD_queue_response(connection, status, handle)
    }

    /// How a body goes out: its coding, and whether it would have gone otherwise for another client.
    struct Encoding {
        var coding: ContentCoding
        var varies: Bool
    }

    /// The coding the request's `Accept-Encoding` prefers, read in place.
    private func acceptedCoding(_ connection: OpaquePointer, brotli: Bool = true) -> ContentCoding {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, StaticString("Accept-Encoding").cString)
        else { return .identity }
        return AcceptEncoding.preferred(UnsafeRawBufferPointer(start: value, count: strlen(value)), brotli: brotli)
    }

    /// The copy's response from last time when it carries the same headers, with this request's
    /// id; otherwise a new one, kept with the copy for next time. A copy belongs to one template,
    /// so its coding never changes.
    private func prepare(_ copy: SplicedCopy, for response: Response, encoding: Encoding, id: RequestID) -> OpaquePointer? {
        if let prepared = copy.prepared, prepared.headers == response.headers, prepared.setRequestID(id) {
            prepared.refreshDate()
            return prepared.handle
        }
        copy.prepared = nil
        guard let handle = MHD_create_response_from_buffer(copy.count, copy.bytes, .RESPMEM_PERSISTENT) else {
            return nil
        }
        addHeaders(of: response, encoding: encoding, id: id, to: handle)
        let prepared = PreparedResponse(handle: handle, headers: response.headers, requestID: id)
        if response.headers["Date"] == nil { prepared.addDate() }
        copy.prepared = prepared
        return handle
    }

    private func refused(_ response: Response) -> MHD_Result {
        logger.error("could not create a response", metadata: ["status": "\(response.status.rawValue)"])
        return .NO
    }

    private func addHeaders(of response: Response, encoding: Encoding, id: RequestID, to handle: OpaquePointer) {
        for (name, value) in response.headers {
            // Each coding's bytes have their own tag.
            let sent = encoding.coding != .identity && name.caseInsensitiveEquals("ETag") ? encoding.coding.etag(value) : value
            name.withCString { name in sent.withCString { add(name, $0, to: handle) } }
        }
        if let token = encoding.coding.token { add(StaticString("Content-Encoding").cString, token.cString, to: handle) }
        if encoding.varies { add(StaticString("Vary").cString, StaticString("Accept-Encoding").cString, to: handle) }
        if response.isHTML {
            for (name, value) in Self.htmlSecurityHeaders { add(name.cString, value.cString, to: handle) }
        }
        add(StaticString("X-Content-Type-Options").cString, StaticString("nosniff").cString, to: handle)
        id.withCString { add(Self.requestIDHeader.cString, $0, to: handle) }
    }

    /// A libmicrohttpd response over `body`, and the coding it went out in: `coding` for a body
    /// in memory that got smaller compressed, else identity.
    private func makeHandle(_ body: ResponseBody, _ coding: ContentCoding,
                            _ connection: OpaquePointer) -> (OpaquePointer, ContentCoding)? {
        if coding != .identity, let compressed = OnTheFly.compress(body, coding) {
            let handle = MHD_create_response_from_buffer_with_free_callback(
                compressed.count, compressed.bytes, freeBufferCallback)
            if handle == nil { free(compressed.bytes) }
            return handle.map { ($0, coding) }
        }
        return makeHandle(body, connection).map { ($0, .identity) }
    }

    private func makeHandle(_ body: ResponseBody, _ connection: OpaquePointer) -> OpaquePointer? {
        switch body {
        case .bytes(let bytes) where bytes.isEmpty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            let box = ResponseBytes(bytes)
            let retained = Unmanaged.passRetained(box)
            let handle = MHD_create_response_from_buffer_with_free_callback_cls(
                bytes.count, box.pointer, releaseBodyCallback, retained.toOpaque())
            if handle == nil { retained.release() }
            return handle
        case .file(let file):
            let descriptor = file.take()
            guard descriptor >= 0 else { return nil }
            return MHD_create_response_from_fd_at_offset64(file.length, descriptor, file.offset)
        case .stream(let stream):
            stream.attach(connection)
            openStreams.open(stream)
            let retained = Unmanaged.passRetained(stream)
            // UInt64.max is MHD_SIZE_UNKNOWN (a macro Swift cannot import): sent chunked.
            let handle = MHD_create_response_from_callback(
                UInt64.max, 4096, streamReaderCallback, retained.toOpaque(), streamFreeCallback)
            if handle == nil { retained.release() }
            return handle
        case .spliced(let body):
            // Reached when the filling does not fit the template's holes: written out whole.
            let count = body.count
            guard let buffer = malloc(max(count, 1)) else { return nil }
            body.write(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
            let handle = MHD_create_response_from_buffer_with_free_callback(count, buffer, freeBufferCallback)
            if handle == nil { free(buffer) }
            return handle
        case .chunks(let body):
            let retained = Unmanaged.passRetained(ChunkedBodyBox(body, descriptor: dh_connection_fd(connection)))
            let handle = MHD_create_response_from_callback(
                UInt64.max, 64 * 1024, chunkReaderCallback, retained.toOpaque(), chunkFreeCallback)
            if handle == nil { retained.release(); body.close() }
            return handle
        }
    }

    private func add(_ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>, to handle: OpaquePointer) {
        if MHD_add_response_header(handle, name, value) == .NO {
            logger.error("refused a response header", metadata: ["header": "\(String(cString: name))"])
        }
    }
}

extension StaticString {
    /// The literal's own NUL-terminated bytes: passing a `String` to C would copy it first.
    var cString: UnsafePointer<CChar> { UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self) }
}
