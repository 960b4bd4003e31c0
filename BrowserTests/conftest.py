"""Browser tests: a real headless Chromium (Selenium) against the real dynamic-home server.

Nothing is built here. The server binary is $DYNAMIC_HOME_BINARY, else .build/debug/dynamic-home,
else .build/release/dynamic-home. Each test module gets its own server on an ephemeral port with
its own copy of the content, its own toggles and its own report log.
"""
import gzip
import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from pages import Catalog, fresh

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", ROOT / "BrowserTests" / ".screenshots")).resolve()


def wait_until(condition, timeout=10, message="the condition did not hold"):
    """Polls `condition` every 50 ms until it returns something true, and returns that; fails with
    `message` when `timeout` seconds pass first. For waiting on the server without a fixed sleep."""
    try:
        return WebDriverWait(None, timeout, poll_frequency=0.05).until(lambda _: condition())
    except TimeoutException:
        raise AssertionError(f"{message} (waited {timeout} s)") from None


def server_binary():
    named = os.environ.get("DYNAMIC_HOME_BINARY")
    if named:
        return Path(named).resolve()
    for build in ("debug", "release"):
        candidate = ROOT / ".build" / build / "dynamic-home"
        if candidate.exists():
            return candidate
    pytest.exit("no server binary: run `swift build --product dynamic-home` or set DYNAMIC_HOME_BINARY", 2)


class ReportLog:
    """The server's report log, read from the files the server writes: a directory of JSON Lines
    segments (closed ones maybe gzipped), oldest first."""

    def __init__(self, path):
        self.path = path

    def text(self):
        if not self.path.exists():
            return ""
        if not self.path.is_dir():
            return self.path.read_text(encoding="utf-8")
        parts = []
        for segment in sorted(self.path.glob("events-*.jsonl*")):
            data = segment.read_bytes()
            parts.append((gzip.decompress(data) if segment.name.endswith(".gz") else data).decode("utf-8"))
        return "".join(parts)

    def events(self, since=0):
        lines = self.text().split("\n")[:-1]  # a last line without its newline is still being written
        return [json.loads(line) for line in lines[since:] if line]

    def mark(self):
        """A position: events(since=mark) are those written after it."""
        return len(self.events())

    def wait_for(self, since, count=1, timeout=10, **fields):
        """Waits until at least `count` events after `since` have all of `fields`; returns them."""
        matching = []

        def found(_):
            nonlocal matching
            matching = [e for e in self.events(since) if all(e.get(k) == v for k, v in fields.items())]
            return len(matching) >= count

        try:
            WebDriverWait(None, timeout, poll_frequency=0.05).until(found)
        except Exception:
            raise AssertionError(f"expected {count} event(s) with {fields} in the report log after line {since}; "
                                 f"got {matching}\nall new lines: {self.events(since)}") from None
        return matching

    def matching(self, since=0, **fields):
        return [e for e in self.events(since) if all(e.get(k) == v for k, v in fields.items())]


class ServerProcess:
    """A `dynamic-home` started by a test: `process` and `stderr_file` set by the subclass."""

    def _wait_until_listening(self, timeout=30, after=0):
        """The address of the `after`+1-th "listening" line of its log (a restart appends to it)."""
        address = None

        def listening_or_ended():
            nonlocal address
            text = self.stderr_file.read_text(errors="replace")
            for line in [line for line in text.splitlines() if "listening on http://" in line][after:]:
                address = line[line.index("http://"):].split()[0].rstrip("/")
                return True
            return self.process.poll() is not None

        try:
            wait_until(listening_or_ended, timeout, "the server did not say it was listening")
        except AssertionError:
            pass
        if address:
            return address
        self.stop()
        raise RuntimeError(f"{type(self).__name__} did not start:\n{self.stderr_file.read_text(errors='replace')}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Server(ServerProcess):
    def __init__(self, folder, onboarding, toggles=None, log_lines=(), report_token=None):
        """`toggles` replaces the default toggles; `log_lines` are written to the report log first;
        `report_token` opens the operator pages to a sign-in."""
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.content_file = folder / "content.json"
        shutil.copy(ROOT / "Config" / "content.json", self.content_file)
        self.toggles_file = folder / "toggles.json"
        self.toggles_file.write_text(json.dumps(toggles or {
            "defaultLayout": "list", "gridRollout": 0.0,
            "experiment": {"name": "home-hero", "groups": ["a", "b"]},
            "onboarding": onboarding}))
        self.log = ReportLog(folder / "reports.jsonl")
        if log_lines:
            seed = folder / "seed.jsonl"
            seed.write_text("".join(json.dumps(line) + "\n" for line in log_lines), encoding="utf-8")
            # Into ./reports of the folder (the import takes the default directory), then renamed.
            subprocess.run([str(server_binary()), "reports", "import", str(seed)],
                           check=True, capture_output=True, timeout=60, cwd=folder)
            (folder / "reports").rename(self.log.path)
        self.stderr_file = folder / "server.log"
        self.catalog = Catalog(json.loads(self.content_file.read_text(encoding="utf-8")))
        with open(self.stderr_file, "wb") as stderr:
            self.process = subprocess.Popen(
                [str(server_binary()), "--port", "0", "--public", str(ROOT / "Public"),
                 "--content", str(self.content_file), "--toggles", str(self.toggles_file),
                 "--report-log", str(self.log.path), "--threads", "4"]
                + (["--report-token", report_token] if report_token else []),
                stdout=subprocess.DEVNULL, stderr=stderr, cwd=folder)
        self.url = self._wait_until_listening()

def start_server(tmp_path_factory, name, onboarding, **options):
    server = Server(tmp_path_factory.mktemp(name), onboarding, **options)
    print(f"\n{name}: {server.url} (log {server.log.path})")
    return server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server for this module, onboarding off."""
    server = start_server(tmp_path_factory, "server", onboarding=False)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def onboarding_server(tmp_path_factory):
    """A server for this module whose toggles turn onboarding on."""
    server = start_server(tmp_path_factory, "onboarding", onboarding=True)
    yield server
    server.stop()


def make_driver(javascript):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--no-first-run", "--disable-extensions",
                     "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                     "--disable-backgrounding-occluded-windows"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture(scope="session")
def js_driver():
    driver = make_driver(javascript=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def nojs_driver():
    driver = make_driver(javascript=False)
    yield driver
    driver.quit()


@pytest.fixture(params=["js", "nojs"])
def browser(request, server, js_driver, nojs_driver):
    """The journeys run with JavaScript on, and again with it off."""
    javascript = request.param == "js"
    return fresh(js_driver if javascript else nojs_driver, server, javascript)


@pytest.fixture
def js_browser(server, js_driver):
    return fresh(js_driver, server, True)


@pytest.fixture
def nojs_browser(server, nojs_driver):
    return fresh(nojs_driver, server, False)


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_terminal_summary(terminalreporter):
    if SCREENSHOTS.exists() and any(SCREENSHOTS.glob("*.png")):
        terminalreporter.write_line(f"screenshots: {SCREENSHOTS}")
