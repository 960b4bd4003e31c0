// A MicroHTTP server with one route answering a file's bytes prepared in memory, so
// scripts/bench can compare libmicrohttpd's request path with nginx serving the same file.
import Basics
import Glibc
import MicroHTTP

// Handlers live outside main.swift: top-level code there is main-actor isolated.
func runBenchServer() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 4, let port = UInt16(arguments[1]), let threads = Int(arguments[2]),
          let file = fopen(arguments[3], "rb") else {
        print("usage: bench-server PORT THREADS FILE")
        exit(2)
    }
    var body: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        body += chunk[..<count]
    }
    fclose(file)

    let page = body
    var router = Router()
    router.get("/page.html") { _ in .html(page) }
    var configuration = ServerConfiguration()
    configuration.port = port
    configuration.threads = threads
    let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
    let server = Server(configuration: configuration, router: router)
    try server.start()
    print("bench-server listening on \(server.port!)")
    _ = signals.next()
    server.shutdown()
}
