"""Three dynamic-home instances sharing one throwaway PostgreSQL (--database), behind the repository's
nginx, for the journeys that need more than one machine. PostgreSQL is the Debian package's
initdb/pg_ctl, run as user postgres when the tests run as root; nginx the Debian package's, on
loopback. Both are parts of the test: one missing fails the test, it is never skipped."""
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess

from conftest import ROOT, ReportLog, ServerProcess, server_binary, wait_until
from pages import Catalog

SECRET = "a-secret-shared-by-every-instance"
# The operators' token: through nginx no request is "local" to an instance, so /admin asks for it.
REPORT_TOKEN = "an-operator-token-for-the-admin-pages"
NGINX = "/usr/sbin/nginx"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_available():
    return os.path.isdir("/usr/lib/postgresql")


def require_postgres_and_nginx():
    """Fails (never skips) the test when a part it needs is missing: scripts/test installs both."""
    import pytest
    if not postgres_available():
        pytest.fail("PostgreSQL is not installed (/usr/lib/postgresql is missing); scripts/test installs it", pytrace=False)
    if not os.access(NGINX, os.X_OK):
        pytest.fail(f"nginx is not installed ({NGINX} is missing); scripts/test installs it", pytrace=False)


class Postgres:
    def __init__(self, folder):
        versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        self.bin = pathlib.Path(f"/usr/lib/postgresql/{versions[-1]}/bin")
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.root = os.geteuid() == 0
        if self.root:
            subprocess.run(["chown", "-R", "postgres:postgres", str(folder)], check=True)
        self.run("initdb", "-D", f"{folder}/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C")
        self.start()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self):
        self.run("pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w", "-o",
                 f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}", "start")

    def run(self, tool, *arguments):
        command = [str(self.bin / tool), *arguments]
        if self.root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)

    def stop(self):
        self.run("pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "stop")


class Instance(ServerProcess):
    """One instance with its own toggles, catalogue and report log, as on its own machine."""

    def __init__(self, folder, name, database, port=None):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.content_file = folder / "content.json"
        shutil.copy(ROOT / "Config" / "content.json", self.content_file)
        self.toggles_file = folder / "toggles.json"
        self.toggles_file.write_text(json.dumps({"defaultLayout": "list", "onboarding": False}))
        self.catalog = Catalog(json.loads(self.content_file.read_text(encoding="utf-8")))
        self.log = ReportLog(folder / "reports")
        self.stderr_file = folder / "server.log"
        # Fixed before start, so nginx names it and a restart keeps it.
        self.port = port or free_port()
        self.arguments = [str(server_binary()), "--port", str(self.port), "--public", str(ROOT / "Public"),
                          "--content", str(self.content_file), "--toggles", str(self.toggles_file),
                          "--report-log", str(self.log.path), "--secret", SECRET, "--report-token", REPORT_TOKEN,
                          "--database", database, "--instance", name]
        self.start()

    def start(self):
        """Starts the process (again, after `stop`) with its files as they are."""
        with open(self.stderr_file, "ab") as stderr:
            listening = self.stderr_file.read_text(errors="replace").count("listening on http://")
            self.process = subprocess.Popen(self.arguments, stdout=subprocess.DEVNULL, stderr=stderr, cwd=self.folder)
        self.url = self._wait_until_listening(after=listening)


class Nginx:
    """The Debian package's nginx on a free loopback port in front of the instances, with the
    repository's deploy/nginx/dynamic-home-proxy.conf opened to `operators` as an operator would
    (an `allow` line above each `deny all`). Looks like a server to the page helpers."""

    def __init__(self, folder, instances, operators=("127.0.0.1",)):
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o777)  # its workers may run as nobody and write their temporary files here
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.catalog = instances[0].catalog
        self.log = instances[0].log
        proxy = (ROOT / "deploy" / "nginx" / "dynamic-home-proxy.conf").read_text()
        allow = "".join(f"allow {address};\n    " for address in operators)
        (folder / "dynamic-home-proxy.conf").write_text(proxy.replace("deny all;", allow + "deny all;"))
        servers = "\n".join(f"        server 127.0.0.1:{i.port} max_fails=1 fail_timeout=5s;" for i in instances)
        (folder / "nginx.conf").write_text(f"""worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream dynamic_home {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{self.port};
        include {folder}/dynamic-home-proxy.conf;
    }}
}}
""")
        started = subprocess.run([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                 capture_output=True, text=True, timeout=30)
        if started.returncode != 0:
            raise RuntimeError(f"nginx did not start: {started.stderr}")

    def stop(self):
        pid_file = self.folder / "nginx.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().strip())
            os.kill(pid, signal.SIGTERM)
            def ended():
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    return True
                return False

            wait_until(ended, 10, "nginx did not stop")
