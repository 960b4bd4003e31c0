import CMicroHTTPD
import Glibc

extension ServerCore {
    /// Headers every HTML page carries: no inline script, no framing, no MIME sniffing.
    static let htmlSecurityHeaders: [(StaticString, StaticString)] = [
        ("Content-Security-Policy",
         "default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"),
        ("Referrer-Policy", "same-origin"),
    ]

    /// Hands `response` to libmicrohttpd: a byte body without copying, a spliced one from a reused
    /// copy of its template with the holes rewritten, a file through sendfile.
    func queue(_ response: Response, id: String, on connection: OpaquePointer) -> MHD_Result {
        guard let handle = makeHandle(response.body, connection) else {
            logger.error("could not create a response", metadata: ["status": "\(response.status.rawValue)"])
            return .NO
        }
        defer { MHD_destroy_response(handle) }
        for (name, value) in response.headers {
            name.withCString { name in value.withCString { add(name, $0, to: handle) } }
        }
        if response.isHTML {
            for (name, value) in Self.htmlSecurityHeaders { add(name.cString, value.cString, to: handle) }
        }
        add(StaticString("X-Content-Type-Options").cString, StaticString("nosniff").cString, to: handle)
        id.withCString { add(StaticString("X-Request-Id").cString, $0, to: handle) }
        return MHD_queue_response(connection, UInt32(response.status.rawValue), handle)
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
            if let copy = body.template.lease(filling: body.filling) {
                let handle = MHD_create_response_from_buffer_with_free_callback_cls(
                    body.template.base.count, copy, returnSplicedCopyCallback, copy)
                if handle == nil { SplicedTemplate.giveBack(copy) }
                return handle
            }
            let count = body.count
            guard let buffer = malloc(max(count, 1)) else { return nil }
            body.write(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
            let handle = MHD_create_response_from_buffer_with_free_callback(count, buffer, freeBufferCallback)
            if handle == nil { free(buffer) }
            return handle
        case .chunks(let body):
            let retained = Unmanaged.passRetained(ChunkedBodyBox(body))
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
