import Foundation

/// nginx from the Debian package in front of some instances on loopback: a generated
/// configuration in a temporary folder that includes the repository's own
/// `deploy/nginx/dynamic-home-proxy.conf` (the locations a deployment uses, without TLS).
/// Started as a daemon, stopped when released.
public final class TemporaryNginx: @unchecked Sendable {
    // @unchecked: every property is set once in init.
    public struct Unavailable: Error, CustomStringConvertible { public let description: String }

    public static let binary = "/usr/sbin/nginx"
    public let port: UInt16
    private let directory: TemporaryDirectory

    public init(upstreams: [UInt16]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw Unavailable(description: "nginx is not installed (Debian: apt-get install nginx)")
        }
        directory = try TemporaryDirectory("nginx")
        // Its workers may run as nobody: they write their temporary files here.
        _ = chmod(directory.url.path, 0o777)
        port = try FreePort.find()
        let root = directory.url.path
        let proxy = ServerProcess.repositoryRoot.appendingPathComponent("deploy/nginx/dynamic-home-proxy.conf").path
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
                server {
                    listen 127.0.0.1:\(port);
                    include \(proxy);
                }
            }
            """
        try configuration.write(toFile: directory.path("nginx.conf"), atomically: true, encoding: .utf8)
        let started = try Subprocess.run(Self.binary, ["-p", root, "-c", directory.path("nginx.conf")])
        guard started.status == 0 else {
            throw Unavailable(description: "nginx did not start: \(started.output)")
        }
    }

    /// What nginx logged (warnings and errors), e.g. upstreams it gave up on.
    public var errorLog: String { (try? String(contentsOfFile: directory.path("error.log"), encoding: .utf8)) ?? "" }

    deinit {
        if let text = try? String(contentsOfFile: directory.path("nginx.pid"), encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
        }
    }
}
