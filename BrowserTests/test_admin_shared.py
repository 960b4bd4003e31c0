"""Three instances and one PostgreSQL: the default layout changed from list to grid in /admin on one
instance, in Chromium with JavaScript on and off, and then every instance's home is the grid."""
import os
import pathlib
import shutil
import tempfile
import urllib.request

import pytest

from pages import fresh
from shared_instances import Instance, Postgres, postgres_available

HOME_LIST = {"HomeContainer", "HomeContainer > ListHome"}
HOME_GRID = {"HomeContainer", "HomeContainer > GridHome"}

pytestmark = pytest.mark.skipif(not postgres_available(), reason="PostgreSQL is not installed (scripts/test installs it)")


@pytest.fixture
def instances(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shared")
    # Outside pytest's folder, which only its owner may enter: PostgreSQL runs as its own user.
    database = pathlib.Path(tempfile.mkdtemp(prefix="browser-pg-"))
    os.chmod(database, 0o777)
    postgres = Postgres(database / "pg")
    started = []
    try:
        for index in range(3):
            started.append(Instance(folder / f"instance-{index}", f"instance-{index}", postgres.url))
        yield started
    finally:
        for instance in started:
            instance.stop()
        postgres.stop()
        shutil.rmtree(database, ignore_errors=True)


def serves_version_one(instance):
    with urllib.request.urlopen(instance.url + "/admin", timeout=10) as response:
        return 'data-version="1"' in response.read().decode()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_admin_on_one_instance_and_every_instance_serves_the_grid(instances, js_driver, nojs_driver, javascript):
    driver = js_driver if javascript else nojs_driver
    browser = fresh(driver, instances[0], javascript)
    browser.wait(lambda _: all(serves_version_one(instance) for instance in instances), 30, "every instance follows version 1")
    for instance in instances:
        fresh(driver, instance, javascript).open("/")
        assert browser.tree() == HOME_LIST

    browser = fresh(driver, instances[0], javascript)
    browser.open("/admin")
    browser.wait_for_path("/admin")
    browser.find("input[name='defaultLayout'][value='grid']").click()
    browser.follow(browser.button("Review the difference"))
    browser.wait_for_path("/admin/toggles")
    browser.find("#field-note").send_keys("grid on every instance")
    browser.follow(browser.button("Apply"))
    browser.wait_for_path("/admin?applied=2")

    for instance in instances:
        other = fresh(driver, instance, javascript)

        def serves_grid(_):
            other.open("/")
            return other.tree() == HOME_GRID

        other.wait(serves_grid, 10, f"{instance.url} serves the grid")
        assert '"defaultLayout": "grid"' in instance.toggles_file.read_text()
