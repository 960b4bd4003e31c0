"""Three dynamic-home instances sharing one throwaway PostgreSQL (--database), for the journeys that
need more than one machine. PostgreSQL is the Debian package's initdb/pg_ctl, run as user postgres
when the tests run as root."""
import json
import os
import pathlib
import shutil
import socket
import subprocess

from conftest import ROOT, ReportLog, ServerProcess, server_binary
from pages import Catalog

SECRET = "a-secret-shared-by-every-instance"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_available():
    return os.path.isdir("/usr/lib/postgresql")


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
        self.run("pg_ctl", "-D", f"{folder}/data", "-l", f"{folder}/log", "-w", "-o",
                 f"-p {self.port} -c listen_addresses=127.0.0.1 -k {folder}", "start")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, tool, *arguments):
        command = [str(self.bin / tool), *arguments]
        if self.root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)

    def stop(self):
        self.run("pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "stop")


class Instance(ServerProcess):
    """One instance with its own toggles, catalogue and report log, as on its own machine."""

    def __init__(self, folder, name, database):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.content_file = folder / "content.json"
        shutil.copy(ROOT / "Config" / "content.json", self.content_file)
        self.toggles_file = folder / "toggles.json"
        self.toggles_file.write_text(json.dumps({"defaultLayout": "list", "onboarding": False}))
        self.catalog = Catalog(json.loads(self.content_file.read_text(encoding="utf-8")))
        self.log = ReportLog(folder / "reports")
        self.stderr_file = folder / "server.log"
        with open(self.stderr_file, "wb") as stderr:
            self.process = subprocess.Popen(
                [str(server_binary()), "--port", "0", "--public", str(ROOT / "Public"), "--content", str(self.content_file),
                 "--toggles", str(self.toggles_file), "--report-log", str(self.log.path), "--secret", SECRET,
                 "--database", database, "--instance", name],
                stdout=subprocess.DEVNULL, stderr=stderr, cwd=folder)
        self.url = self._wait_until_listening()
