"""Journeys 6 and 7: the grid's sideways scroll reported once per gesture, and /reports updating
live in a second window. Plus the grid's "More" button, which does the scroll without JavaScript."""
import secrets
import time
import urllib.request

import pytest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

from conftest import wait_until
from pages import SCENES, SELECTED
from test_journeys import assert_home


def swipes(browser, mark, visitor):
    return browser.log.matching(mark, event="horizontal_swipe", visitor=visitor)


# The first tile of a row on the screen, by what is drawn: the first whose left edge is at the
# row's start (its scroll padding) or at most half a tile before it.
FIRST_SHOWN = """
const row = arguments[0];
const box = row.getBoundingClientRect();
const start = box.left + row.clientLeft + parseFloat(getComputedStyle(row).scrollPaddingLeft || '0');
const tiles = [...row.querySelectorAll('.grid-tile')];
return String(tiles.findIndex((tile) => {
  const edge = tile.getBoundingClientRect();
  return edge.left >= start - edge.width / 2;
}));
"""


def settled(browser, row, quiet=0.5):
    """Waits until the row has not moved for `quiet` seconds; returns its first tile shown."""
    last = {"left": None, "since": 0.0}

    def still(driver):
        left = driver.execute_script("return arguments[0].scrollLeft", row)
        now = time.monotonic()
        if left != last["left"]:
            last.update(left=left, since=now)
            return False
        return now - last["since"] >= quiet

    browser.wait(still, 10, "the row kept moving")
    return browser.driver.execute_script(FIRST_SHOWN, row)


def open_live_reports(browser):
    """Opens /reports, waits until it follows the stream, and marks the document to tell a reload."""
    browser.open("/reports")
    browser.wait(lambda d: d.find_element(By.CSS_SELECTOR, "[data-live-status]").text == "Live", 10,
                 "/reports never said Live")
    browser.driver.execute_script("window.__sameDocument = true")


def test_journey_6_horizontal_scroll_reports_one_swipe(js_browser):
    """A real wheel scroll of a grid row sideways writes exactly one horizontal_swipe line."""
    browser = js_browser
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    visitor = browser.visitor()
    row = browser.find("ul.grid-row__tiles[data-row='1']")
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    assert browser.driver.execute_script("return arguments[0].scrollLeft", row) == 0
    mark = browser.log.mark()
    assert not swipes(browser, 0, visitor), "loading the page reported a swipe nobody made"

    # One gesture: a few wheel ticks sideways over the row, as a trackpad swipe sends them.
    actions = ActionChains(browser.driver)
    for _ in range(4):
        actions.scroll_from_origin(ScrollOrigin.from_element(row), 120, 0)
    actions.perform()

    browser.wait(lambda d: d.execute_script("return arguments[0].scrollLeft", row) > 0, 5,
                 "the row did not scroll sideways")
    assert browser.driver.execute_script("return window.scrollX") == 0, "the page scrolled instead of the row"
    shown = settled(browser, row)
    assert shown != "0"
    swipe = browser.log.wait_for(mark, event="horizontal_swipe", visitor=visitor)[0]
    assert swipe["layout"] == "grid"
    # The line says where the row went: the first tile now shown, as "More" without JavaScript.
    assert (swipe["properties"].get("row"), swipe["properties"].get("to"), swipe["properties"].get("via")) \
        == ("1", shown, "scroll"), swipe
    # The place, not an item: search results arrange fewer items in a row than the home.
    assert "item" not in swipe, swipe
    # The gesture is over: a second gesture, on the next row, is reported, and the first row still
    # has its one line (the page reports in order, so a late second line would be in by now).
    other = browser.find("ul.grid-row__tiles[data-row='2']")
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", other)
    actions = ActionChains(browser.driver)
    for _ in range(4):
        actions.scroll_from_origin(ScrollOrigin.from_element(other), 120, 0)
    actions.perform()
    wait_until(lambda: [e for e in swipes(browser, mark, visitor) if e["properties"].get("row") == "2"], 10,
               "the second row's swipe was not reported")
    first_row = [e for e in swipes(browser, mark, visitor) if e["properties"].get("row") == "1"]
    assert len(first_row) == 1, swipes(browser, mark, visitor)


def test_grid_more_button_scrolls_row_without_javascript(nojs_browser):
    """Without JavaScript the row's "More" button posts, the row comes back scrolled on, reported once."""
    browser = nojs_browser
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    visitor = browser.visitor()
    mark = browser.log.mark()
    more = browser.find("#grid-section-1").find_element(By.XPATH, "following-sibling::button[@name='more']")
    target = more.get_attribute("value")
    section, item = target.split(".")
    browser.follow(more)
    browser.wait_for_path(f"/?layout=grid&row={section}&at={item}")
    assert browser.driver.current_url.endswith(f"#grid-tile-{section}-{item}")
    assert_home(browser, "grid", f"/?layout=grid&row={section}&at={item}")
    row = browser.find(f"ul.grid-row__tiles[data-row='{section}']")
    browser.wait(lambda _: row.get_property("scrollLeft") > 0, 5, "the row did not move on")
    line = browser.log.wait_for(mark, event="horizontal_swipe", visitor=visitor)
    assert [(e["layout"], e["properties"]["row"], e["properties"]["via"]) for e in line] == [("grid", section, "more")]
    # The home it comes back to is the same view, as with JavaScript: no second launch.
    time.sleep(0.5)
    assert not browser.log.matching(mark, event="launch", visitor=visitor), "the press wrote a launch too"


def test_grid_more_button_reports_where_the_row_went_with_javascript(js_browser):
    """With JavaScript "More" scrolls the row in place and writes the line it writes without:
    one per press, `via=more`, `to` the first tile the press brought into view."""
    browser = js_browser
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    visitor = browser.visitor()
    row = browser.find("ul.grid-row__tiles[data-row='1']")
    more = browser.find("#grid-section-1").find_element(By.XPATH, "following-sibling::button[@name='more']")
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    seen = []
    for press in range(2):
        mark = browser.log.mark()
        more.click()
        shown = settled(browser, row)
        assert int(shown) > (int(seen[-1]) if seen else 0), f"press {press + 1} did not move the row on"
        assert browser.path() == "/?layout=grid", "the press left the page"
        line = browser.log.wait_for(mark, event="horizontal_swipe", visitor=visitor)
        # Anything more this press writes is in by now: the page sends it as the row starts moving.
        time.sleep(0.5)
        line = swipes(browser, mark, visitor)
        assert [(e["layout"], e["properties"]["row"], e["properties"]["to"], e["properties"]["via"]) for e in line] \
            == [("grid", "1", shown, "more")], line
        seen.append(shown)
    assert not browser.log.matching(0, event="launch", visitor=visitor)[1:], "a press loaded the home again"


# The first tile of a row not wholly shown in its box: where a screenful on starts.
FIRST_CUT = """
const row = arguments[0];
const right = row.getBoundingClientRect().left + row.clientLeft + row.clientWidth;
return String([...row.querySelectorAll('.grid-tile')].findIndex((tile) => tile.getBoundingClientRect().right > right + 0.5));
"""


@pytest.mark.parametrize("width", [375, 390, 1280])
def test_grid_more_moves_on_by_the_tiles_wholly_shown(js_browser, width):
    """With JavaScript "More" moves a screenful on: the first tile not wholly shown comes first,
    none wholly shown is skipped (on a phone two tiles are shown, and a press moved by one; at
    375 pixels the second reaches into the row's end padding, and still counts)."""
    browser = js_browser
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        browser.open("/?layout=grid")
        row = browser.find("ul.grid-row__tiles[data-row='1']")
        more = browser.find("#grid-section-1").find_element(By.XPATH, "following-sibling::button[@name='more']")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        cut = driver.execute_script(FIRST_CUT, row)
        assert int(cut) >= 2 if width < 600 else int(cut) >= 4, f"{cut} tiles wholly shown at {width}"
        more.click()
        assert settled(browser, row) == cut
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_journey_7_reports_update_live_in_second_window(js_browser):
    """/reports in a second window gains the event when the first window chooses an item."""
    browser = js_browser
    driver = browser.driver
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    home = driver.current_window_handle

    driver.switch_to.new_window("window")
    reports = driver.current_window_handle
    open_live_reports(browser)
    total = int(browser.find("[data-total]").text)
    rows = len(browser.find_all("tbody[data-events] tr"))

    driver.switch_to.window(home)
    tile = browser.find("#grid-tile-0-0 .grid-tile__open")
    item = browser.catalog.by_title(tile.find_element(By.CSS_SELECTOR, ".grid-tile__title").text)
    browser.follow(tile)
    browser.wait_for_path(f"/{SCENES[item['kind']]}/{item['id']}")

    driver.switch_to.window(reports)
    browser.wait(lambda d: int(d.find_element(By.CSS_SELECTOR, "[data-total]").text) > total, 5,
                 "the total on /reports did not go up")
    assert driver.execute_script("return window.__sameDocument === true"), "/reports reloaded instead of updating"
    newest = browser.find("tbody[data-events] tr")
    cells = [c.text for c in newest.find_elements(By.CSS_SELECTOR, "td")]
    assert cells[1:4] == [SELECTED[item["kind"]], "grid", item["id"]]
    assert newest.is_displayed()
    assert len(browser.find_all("tbody[data-events] tr")) == rows + int(browser.find("[data-total]").text) - total


def test_reports_visitors_follow_a_new_visitor_live(js_browser):
    """/reports counts a visitor new to the range while it is open: the visitors follow the events."""
    browser = js_browser
    driver = browser.driver
    open_live_reports(browser)
    visitors = int(browser.find("[data-visitors]").text)
    newcomer = secrets.token_hex(16)
    request = urllib.request.Request(browser.server.url + "/", headers={"Cookie": f"visitor={newcomer}; onboarded=1"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
    browser.log.wait_for(0, visitor=newcomer)
    browser.wait(lambda d: d.find_element(By.CSS_SELECTOR, "[data-visitors]").text == str(visitors + 1), 10,
                 f"the visitors on /reports stayed at {visitors}")
    assert driver.execute_script("return window.__sameDocument === true"), "/reports reloaded instead of updating"



def test_the_live_log_gets_the_events_written_before_its_stream_starts(server):
    """/reports counts the log up to a line and says which (data-after); the stream its script
    opens starts after it, so an event written between the page and the stream's start comes
    first, and is neither missed by the counts nor counted twice."""
    import json
    import re
    import urllib.parse
    import urllib.request
    page = urllib.request.urlopen(server.url + "/reports", timeout=10).read().decode()
    after = re.search(r'data-live-reports[^>]*data-after="([^"]+)"', page)
    assert after, "the live report log does not say where its figures end"
    mark = server.log.mark()
    urllib.request.urlopen(server.url + "/?layout=grid", timeout=10).read()
    server.log.wait_for(mark, event="launch", layout="grid")
    stream = urllib.request.urlopen(f"{server.url}/reports/stream?after={urllib.parse.quote(after.group(1))}", timeout=10)
    try:
        line = next(line for line in stream if line.startswith(b"data:"))
    finally:
        stream.close()
    first = json.loads(line[len(b"data:"):])
    assert (first["event"], first.get("layout")) == ("launch", "grid"), first


@pytest.fixture
def two_instances(tmp_path_factory):
    """Two instances sharing a throwaway PostgreSQL, so /reports shows both their events."""
    import pathlib
    import shutil
    import tempfile
    from shared_instances import Instance, Postgres, postgres_available
    if not postgres_available():
        pytest.fail("PostgreSQL is not installed (/usr/lib/postgresql is missing); scripts/test installs it", pytrace=False)
    folder = tmp_path_factory.mktemp("live-shared")
    outside = pathlib.Path(tempfile.mkdtemp(prefix="browser-live-shared-"))  # PostgreSQL runs as its own user
    outside.chmod(0o777)
    postgres = Postgres(outside / "pg")
    started = []
    try:
        for index in range(2):
            started.append(Instance(folder / f"instance-{index}", f"instance-{index}", postgres.url))
        yield started
    finally:
        for instance in started:
            instance.stop()
        postgres.stop()
        shutil.rmtree(outside, ignore_errors=True)


def test_the_shared_live_log_gets_the_rows_shipped_before_its_stream_starts(two_instances):
    """With a report database, /reports names the key its events end before (data-after); the
    stream its script opens starts after it, so a row another instance ships between the page and
    the stream's start, and the feed passes on before it, comes first."""
    import json
    import re
    import urllib.parse
    from shared_instances import REPORT_TOKEN
    first, second = two_instances
    operator = {"Authorization": f"Bearer {REPORT_TOKEN}"}

    def read(url):
        with urllib.request.urlopen(urllib.request.Request(url, headers=operator), timeout=10) as response:
            return response.read().decode()

    page = read(first.url + "/reports")
    after = re.search(r'data-live-reports[^>]*data-after="([^"]+)"', page)
    assert after, "the shared live report log does not say where its events end"
    newcomer = secrets.token_hex(16)
    request = urllib.request.Request(second.url + "/", headers={"Cookie": f"visitor={newcomer}; onboarded=1"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    wait_until(lambda: newcomer in read(first.url + "/reports.jsonl"), 20, "the other instance's launch never reached the database")
    time.sleep(3)  # longer than the feed holds a row: it has passed the launch on before the stream opens
    stream = urllib.request.urlopen(urllib.request.Request(
        f"{first.url}/reports/stream?after={urllib.parse.quote(after.group(1))}", headers=operator), timeout=10)
    try:
        line = next(line for line in stream if line.startswith(b"data:"))
    finally:
        stream.close()
    first_event = json.loads(line[len(b"data:"):])
    assert (first_event["event"], first_event.get("visitor")) == ("launch", newcomer), first_event
