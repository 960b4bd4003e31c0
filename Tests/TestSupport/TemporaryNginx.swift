import Foundation

/// nginx from the Debian package in front of some instances on loopback: a generated
/// configuration in a temporary folder that includes the repository's own
/// `deploy/nginx/dynamic-home-proxy.conf` (the locations a deployment uses), served either
/// plainly or, given a certificate, by the TLS server of `deploy/nginx/dynamic-home.conf` itself
/// (HTTP/2 and all), its port and paths swapped for the test's. Started as a daemon, stopped
/// when released.
public final class TemporaryNginx: @unchecked Sendable {
    // @unchecked: every property is set once in init.
    public struct Unavailable: Error, CustomStringConvertible { public let description: String }

    public static let binary = "/usr/sbin/nginx"
    public let port: UInt16
    private let directory: TemporaryDirectory

    /// A certificate and its key, as PEM files.
    public struct Certificate: Sendable {
        public let certificate: String
        public let key: String
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// `operators`: the networks allowed to the operator pages, written above each `deny all` of
    /// the proxy locations as an operator would (none: refused to everyone, as shipped).
    public init(upstreams: [UInt16], tls: Certificate? = nil, operators: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw Unavailable(description: "nginx is not installed (Debian: apt-get install nginx)")
        }
        directory = try TemporaryDirectory("nginx")
        // Its workers may run as nobody: they write their temporary files here.
        _ = chmod(directory.url.path, 0o777)
        port = try FreePort.find()
        let root = directory.url.path
        let deploy = ServerProcess.repositoryRoot.appendingPathComponent("deploy/nginx")
        var proxy = deploy.appendingPathComponent("dynamic-home-proxy.conf").path
        if !operators.isEmpty {
            let allow = operators.map { "allow \($0);\n    " }.joined()
            let opened = try String(contentsOfFile: proxy, encoding: .utf8).replacingOccurrences(of: "deny all;", with: allow + "deny all;")
            proxy = directory.path("dynamic-home-proxy.conf")
            try opened.write(toFile: proxy, atomically: true, encoding: .utf8)
        }
        let server = try tls.map { try Self.tlsServer(deploy.appendingPathComponent("dynamic-home.conf").path, port: port, tls: $0, proxy: proxy) }
            ?? """
                server {
                    listen 127.0.0.1:\(port);
                    include \(proxy);
                }
            """
        let servers = upstreams.map { "        server 127.0.0.1:\($0) max_fails=1 fail_timeout=5s;" }.joined(separator: "\n")
        let configuration = """
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(root)/client_body;
                proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi;
                uwsgi_temp_path \(root)/uwsgi;
                scgi_temp_path \(root)/scgi;
                upstream dynamic_home {
            \(servers)
                    keepalive 16;
                }
            \(server)
            }
            """
        try configuration.write(toFile: directory.path("nginx.conf"), atomically: true, encoding: .utf8)
        let started = try Subprocess.run(Self.binary, ["-p", root, "-c", directory.path("nginx.conf")])
        guard started.status == 0 else {
            throw Unavailable(description: "nginx did not start: \(started.output)")
        }
    }

    /// The deployment's `server` block that listens with TLS, as written, but on `port` of
    /// loopback, with the test's certificate and the repository's proxy locations.
    static func tlsServer(_ path: String, port: UInt16, tls: Certificate, proxy: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let blocks = text.components(separatedBy: "\nserver {").dropFirst().map { "server {" + $0 }
        guard let block = blocks.first(where: { $0.contains(" ssl") }) else {
            throw Unavailable(description: "\(path) has no TLS server")
        }
        var lines: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ")
            switch words.first {
            case "listen" where line.contains("[::]"): continue
            case "listen": lines.append("    listen 127.0.0.1:\(port) " + words.dropFirst(2).joined(separator: " "))
            case "ssl_certificate": lines.append("    ssl_certificate \(tls.certificate);")
            case "ssl_certificate_key": lines.append("    ssl_certificate_key \(tls.key);")
            case "include": lines.append("    include \(proxy);")
            default: lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What nginx logged (warnings and errors), e.g. upstreams it gave up on.
    public var errorLog: String { (try? String(contentsOfFile: directory.path("error.log"), encoding: .utf8)) ?? "" }

    deinit {
        if let text = try? String(contentsOfFile: directory.path("nginx.pid"), encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
            try? eventually("nginx ended", timeout: 2) { kill(pid, 0) != 0 }
        }
    }
}
