"""The servers scripts/bench measures: dynamic-home, the MicroHTTP bench server, nginx and the
Hummingbird peer, each on a free loopback port, and the wrk scripts that carry cookies and tokens."""
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

VISITOR = "0123456789abcdef0123456789abcdef"
COOKIE = f"visitor={VISITOR}; onboarded=1"
# A second visitor, given rows of their own where the first has none (scripts/instructions).
ROWS_VISITOR = "fedcba9876543210fedcba9876543210"
ROWS_COOKIE = f"visitor={ROWS_VISITOR}; onboarded=1"
# The per-visitor and per-address event limits on, as by default, but high: one client sends
# every request, and each takes from both buckets as a visitor within the defaults would, and is
# never refused.
EVENT_LIMITS = ["--report-visitor-rate", "1000000", "--report-visitor-burst", "1000000",
                "--report-address-rate", "1000000", "--report-address-burst", "1000000"]
_running = []


class Server:
    def __init__(self, process, port):
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}"

    def cpu_seconds(self):
        return process_cpu_seconds(self.process.pid)

    def peak_rss_mib(self):
        status = pathlib.Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)


def process_cpu_seconds(pid):
    """User and system CPU seconds of one process (all its threads) so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(pid):
    """{thread name: (user, system)} CPU seconds of a process's threads so far, summed by name. The
    kernel splits user from system time by clock tick: read it over many requests. A thread that
    ended since an earlier reading takes its time with it."""
    ticks = os.sysconf("SC_CLK_TCK")
    named = {}
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        user, system = named.get(name, (0.0, 0.0))
        named[name] = (user + int(fields[11]) / ticks, system + int(fields[12]) / ticks)
    return named


def machine_busy_seconds():
    """CPU seconds all cores have spent working so far: user, nice, system, irq and softirq. Idle,
    iowait and steal are not work; guest time is already counted in user and nice."""
    ticks = [int(field) for field in pathlib.Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(ticks[0:3]) + sum(ticks[5:7])) / os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url, cookie=COOKIE, encoding=None):
    headers = {"Cookie": cookie} | ({"Accept-Encoding": encoding} if encoding else {})
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request) as response:
        return response.read()


def fetch_compressed(url, encoding):
    """The page in `encoding` once it is steady: the first answers after a render are compressed
    per response, then the page's form compressed once takes over."""
    sizes = []
    for _ in range(100):
        body = fetch(url, encoding=encoding)
        sizes.append(len(body))
        if len(sizes) >= 3 and sizes[-1] == sizes[-2] == sizes[-3]:
            return body
        time.sleep(0.1)
    return body


def wait_until_up(url, process):
    for _ in range(200):
        if process.poll() is not None:
            raise SystemExit(f"{url}: the server exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{url} did not come up")


def launch(command, health_path="/healthz", **kwargs):
    port = free_port()
    process = subprocess.Popen([part.replace("{port}", str(port)) for part in command],
                               stdout=subprocess.DEVNULL, **kwargs)
    server = Server(process, port)
    _running.append(server)
    wait_until_up(server.url + health_path, process)
    return server


def stop_all():
    for server in _running:
        try:
            server.stop()
        except Exception:  # noqa: BLE001 - best effort on the way out
            server.process.kill()


def bench_content(root, work, count=120):
    """The default catalogue cycled to `count` items with fresh ids (posters reused)."""
    items = json.loads((root / "Config/content.json").read_text())["items"]
    made = []
    for index in range(count):
        item = dict(items[index % len(items)])
        item["id"] = f"{item['id']}-{index}"
        made.append(item)
    path = work / "content.json"
    path.write_text(json.dumps({"version": 1, "items": made}))
    return path


def start_dynamic_home(root, work, threads, rows=0, content=None, toggles=None):
    """`rows`: titles the bench visitor has in Continue watching and in My List (`seed_rows`);
    `content`: a catalogue to serve instead of the bench's (copied into `work`); `toggles`: a
    toggles file to serve with instead of the bench's, which has no experiment (copied too)."""
    if content:
        shutil.copyfile(content, work / "content.json")
    content = work / "content.json" if content else bench_content(root, work)
    if rows:
        seed_rows(root / ".build-release/release/dynamic-home", work, content, rows)
    if toggles:
        shutil.copyfile(toggles, work / "toggles.json")
    else:
        (work / "toggles.json").write_text(json.dumps({"defaultLayout": "grid", "onboarding": False}))
    toggles = work / "toggles.json"
    server = launch([str(root / ".build-release/release/dynamic-home"), "--port", "{port}", "--public", str(root / "Public"),
                     "--content", str(content), "--toggles", str(toggles),
                     "--report-log", str(work / "reports"), "--threads", str(threads), "--log-level", "warning",
                     *EVENT_LIMITS],
                    stderr=subprocess.DEVNULL)
    (work / "www").mkdir(exist_ok=True)
    if rows:
        # The log is read in at start, off the request threads: the rows come once it is.
        deadline = time.monotonic() + 60
        while fetch(server.url + "/?layout=grid").count(b"personal-tile__open") != 2 * rows:
            if time.monotonic() > deadline:
                raise SystemExit("the bench visitor's rows are not on the page")
            time.sleep(0.2)
    (work / "www/home-grid.html").write_bytes(fetch(server.url + "/?layout=grid"))
    # The same visitor's page as ours sends it in gzip, for nginx's gzip_static to send as is.
    (work / "www/home-grid.html.gz").write_bytes(fetch_compressed(server.url + "/?layout=grid", "gzip"))
    return server


def seed_rows(binary, work, content, count, visitor=VISITOR):
    """A report log in which the bench visitor (or `visitor`) played `count` films (part-way) and
    listed `count` clips, imported the way an operator would; the server reads it back at start."""
    items = json.loads(content.read_text())["items"]
    films = [i for i in items if i["kind"] == "long"][:count]
    clips = [i for i in items if i["kind"] == "short"][:count]
    lines = []
    for index, film in enumerate(films):
        seconds = str(film["durationMinutes"] * 60)
        lines.append({"timestamp": f"2026-01-01T00:{index:02d}:00.000Z", "event": "play_progress", "item": film["id"],
                      "visitor": visitor, "properties": {"position": "600", "duration": seconds}})
    for index, clip in enumerate(clips):
        lines.append({"timestamp": f"2026-01-01T01:{index:02d}:00.000Z", "event": "my_list_added", "item": clip["id"],
                      "visitor": visitor})
    seed = work / f"seed-{visitor[:8]}.jsonl"
    seed.write_text("".join(json.dumps(line) + "\n" for line in lines))
    subprocess.run([str(binary), "reports", "import", str(seed)], check=True, capture_output=True, cwd=work)


def start_bench_server(root, work, threads):
    (work / "www").mkdir(exist_ok=True)
    rows = "".join(f'<li class="row"><a href="/long/m-{i:03}">Title {i} &amp; more</a><p>Description of item {i}, '
                   f'long enough to look real.</p></li>\n' for i in range(200))
    page = work / "www/page.html"
    page.write_text(f'<!DOCTYPE html><html lang="en"><head><title>Bench</title></head><body><ul>{rows}</ul></body></html>'[:20480])
    return launch([str(root / ".build-release/release/bench-server"), "{port}", str(threads), str(page)], "/page.html")


MHD_REFERENCE = pathlib.Path(__file__).resolve().parents[2] / ".build-release/mhd-reference"


def start_mhd_reference(work, threads, encoding=None):
    """Benchmarks/MHDReference (built by scripts/bench) serving the home page's bytes from memory;
    with `encoding` ("gzip"), the page in that coding as the file beside it holds it."""
    page = [str(work / "www/home-grid.html")] if encoding is None else [str(work / "www/home-grid.html.gz"), encoding]
    return launch([str(MHD_REFERENCE), "{port}", str(threads), *page], "/")


def start_nginx(work, threads):
    port = free_port()
    (work / "logs").mkdir(exist_ok=True)
    (work / "nginx.conf").write_text(f"""
worker_processes {threads};
pid {work}/nginx.pid;
error_log {work}/logs/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types {{ text/html html; }}
    server {{
        listen 127.0.0.1:{port};
        root {work}/www;
        # The precompressed page (home-grid.html.gz) as it is, and the page compressed per request.
        location /static/ {{ alias {work}/www/; gzip_static on; }}
        location /fly/ {{ alias {work}/www/; gzip on; gzip_comp_level 6; gzip_min_length 0; }}
        location /fly1/ {{ alias {work}/www/; gzip on; gzip_comp_level 1; gzip_min_length 0; }}
    }}
}}
""")
    subprocess.run(["nginx", "-p", str(work), "-c", str(work / "nginx.conf")], check=True)
    process = subprocess.Popen(["sleep", "infinity"])  # nginx daemonises; this stands in for its lifetime
    server = Server(process, port)
    server.stop = lambda: (subprocess.run(["nginx", "-p", str(work), "-c", str(work / "nginx.conf"), "-s", "stop"]),
                           process.kill())
    server.cpu_seconds = lambda: nginx_workers_cpu_seconds(work)
    _running.append(server)
    wait_until_up(server.url + "/page.html", process)
    return server


def nginx_workers_cpu_seconds(work):
    """CPU seconds of nginx's workers (the master only supervises them)."""
    master = (work / "nginx.pid").read_text().strip()
    children = pathlib.Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return sum(process_cpu_seconds(int(child)) for child in children)


def start_hummingbird_peer(root, work, ours, threads):
    binary = root / "Benchmarks/HummingbirdPeer/.build/release/hummingbird-peer"
    if not binary.exists():
        print("(no Hummingbird peer: build it with `swift build -c release` in Benchmarks/HummingbirdPeer)")
        return None
    server = launch([str(binary), "--port", "{port}", "--content", str(work / "content.json"), "--threads", str(threads)],
                    "/healthz", stderr=subprocess.DEVNULL)
    theirs, mine = (masked_token(fetch(s.url + "/?layout=grid")) for s in (server, ours))
    if theirs != mine:
        at = next((i for i, (a, b) in enumerate(zip(theirs, mine)) if a != b), min(len(theirs), len(mine)))
        print(f"(the Hummingbird peer's page differs from ours at byte {at}: "
              f"{theirs[at:at + 60]!r} vs {mine[at:at + 60]!r})")
    return server


def masked_token(page):
    """The page with its CSRF token (every occurrence) replaced by a fixed string."""
    token = re.search(rb'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    return page.replace(token, b"CSRF-TOKEN")


def cookie_script(work, name, encoding=None):
    path = work / f"{name}.lua"
    accept = f'wrk.headers["Accept-Encoding"] = "{encoding}"\n' if encoding else ""
    path.write_text(f'wrk.headers["Cookie"] = "{COOKIE}"\n' + accept)
    return path


def post_script(work, name, ours, body):
    html = fetch(ours.url + "/?layout=grid").decode()
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', html).group(1)
    path = work / f"{name}.lua"
    path.write_text(f'wrk.method = "POST"\nwrk.body = "{body}&_csrf={token}"\n'
                    f'wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n'
                    f'wrk.headers["Cookie"] = "{COOKIE}"\n')
    return path
