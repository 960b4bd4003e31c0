import Glibc
import Logging

/// libFuzzer target: the query decoder (MicroHTTP's own; libmicrohttpd never sees the query), the
/// form decoders (libmicrohttpd's PostProcessor) and the Cookie header, through a real `Server` on
/// 127.0.0.1. After its first byte, which picks the content type, the input is split at its first
/// two newlines into the query, the Cookie value and the body. A 5xx, or no response within 10 s,
/// is a crash. A prompt close without a response is allowed (the malformed-request battery's rule:
/// a 4xx or a closed connection) if the server then answers a plain request.
let server: Server = {
    let echo: Handler = { request in
        var out = ""
        for (name, value) in request.query { out += "q \(name)=\(value)\n" }
        for field in request.form { out += "f \(field.name)=\(field.value) \(field.filename ?? "")\n" }
        for (name, value) in request.cookies { out += "c \(name)=\(value)\n" }
        return .text(out)
    }
    var router = Router()
    router.get("/x", echo)
    router.post("/x", echo)
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 1
    var logger = Logger(label: "fuzz")
    logger.logLevel = .critical
    let server = Server(configuration: configuration, router: router, logger: logger)
    try! server.start()
    return server
}()

/// The keep-alive connection; libFuzzer calls the target from one thread only.
nonisolated(unsafe) var descriptor: Int32 = -1

private let contentTypes = ["application/x-www-form-urlencoded", "multipart/form-data; boundary=B", "text/plain"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let parts = input.dropFirst().split(separator: 10, maxSplits: 2, omittingEmptySubsequences: false).map { Array($0) }
    let query = escapeForRequestLine(parts.first ?? [])
    let body = parts.count > 2 ? parts[2] : []
    var bytes = Array("\(body.isEmpty ? "GET" : "POST") /x?\(query) HTTP/1.1\r\nHost: f\r\n".utf8)
    if parts.count > 1 {
        let cookie: [UInt8] = parts[1].map { $0 == 13 || $0 == 0 ? 0x20 : $0 }
        bytes += Array("Cookie: ".utf8)
        bytes += cookie
        bytes += [13, 10]
    }
    let type = contentTypes[Int(input[0]) % contentTypes.count]
    bytes += Array((body.isEmpty ? "\r\n" : "Content-Type: \(type)\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
    bytes += body
    guard let status = exchange(bytes) else {
        let probe = exchange(Array("GET /x?alive HTTP/1.1\r\nHost: f\r\n\r\n".utf8))
        check(probe.map { (200..<300).contains($0) } == true, "closed, then the server did not answer")
        return 0
    }
    check((200..<300).contains(status) || (400..<500).contains(status), "answered \(status)")
    return 0
}

/// Bytes a request line cannot carry raw are %-escaped; `%` itself is kept, malformed or not.
private func escapeForRequestLine(_ bytes: some Collection<UInt8>) -> String {
    var out = ""
    for byte in bytes {
        if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "#") {
            out += "%" + String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        } else {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        }
    }
    return out
}

/// `FUZZ_SERVE=1 .build-fuzz/bin/RequestDecoding` only runs the target's server and prints its
/// port, for replaying a sequence of requests by hand (e.g. a saved history) against it.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard getenv("FUZZ_SERVE") != nil else { return 0 }
    print("port \(server.port!)")
    fflush(nil)
    while true { sleep(3600) }
}
