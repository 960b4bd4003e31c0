"""Play, progress and My List, with JavaScript on and off: open a title, Play, move the position,
see it kept on the title's page; add the title to My List and remove it. Each step checks the page
and the events the report log gains for this visitor."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def move_position(browser, keys):
    """Moves the range with the keyboard, as a person would (End, arrows)."""
    position = browser.find("input[type=range][name=position]")
    position.send_keys(*keys)
    return position


def play(browser, film):
    """Opens the film's page and presses Play; the visitor's id."""
    browser.open(f"/long/{film['id']}")
    visitor = browser.visitor()
    browser.follow(browser.button("Play"))
    browser.wait_for_path(f"/watch/{film['id']}")
    return visitor


def test_play_and_progress(browser):
    log = browser.log
    film = browser.catalog.first("long")
    seconds = film["durationMinutes"] * 60
    browser.open(f"/long/{film['id']}")
    visitor = browser.visitor()
    mark = log.mark()
    browser.follow(browser.button("Play"))
    browser.wait_for_path(f"/watch/{film['id']}")
    assert browser.find("h1").text == film["title"]
    assert browser.tree() == {"WatchScreen"}
    started = log.wait_for(mark, event="play_started", visitor=visitor)
    assert [(e["item"], e["properties"]["duration"]) for e in started] == [(film["id"], str(seconds))]

    mark = log.mark()
    # End, then Home: back at the start; then 90 presses of the right arrow, a second each.
    position = move_position(browser, [Keys.END, Keys.HOME] + [Keys.ARROW_RIGHT] * 90)
    expected = 90
    assert position.get_attribute("value") == str(expected)
    if browser.javascript:
        # The script saves on change (once the keys are done moving it) and marks the form.
        browser.wait(lambda d: browser.find("form.watch-progress").get_attribute("data-saved") == str(expected),
                     message="the position was not saved by the script")
        assert "saved" in browser.find("output").text
        assert browser.path() == f"/watch/{film['id']}"
    else:
        browser.follow(browser.button("Save position"))
        browser.wait_for_path(f"/watch/{film['id']}")
    progress = log.wait_for(mark, event="play_progress", visitor=visitor, item=film["id"])
    assert progress[-1]["properties"]["position"] == str(expected)

    browser.open(f"/watch/{film['id']}")
    assert browser.find("input[type=range]").get_attribute("value") == str(expected)
    browser.open(f"/long/{film['id']}")
    assert browser.button("Resume")
    assert browser.find(".item-screen__progress").text.startswith("Watched 1:30 of")


def test_save_position_right_after_moving_writes_one_event(js_browser):
    """Moving the position and pressing Save position at once (before the script's own save, 400 ms
    after the keys stop) is one save: one play_progress, not the button's and the timer's."""
    browser = js_browser
    log = browser.log
    film = browser.catalog.first("long")
    visitor = play(browser, film)
    mark = log.mark()
    move_position(browser, [Keys.HOME] + [Keys.ARROW_RIGHT] * 5)
    browser.button("Save position").click()
    browser.wait(lambda d: browser.find("form.watch-progress").get_attribute("data-saved") == "5")
    log.wait_for(mark, event="play_progress", visitor=visitor)
    browser.driver.execute_script("return new Promise((done) => setTimeout(done, 1000))")
    saved = log.matching(mark, event="play_progress", visitor=visitor)
    assert [e["properties"]["position"] for e in saved] == ["5"]


# A phone; a 1280×900 desktop window (757 px of page under the browser's bars) and a laptop.
CONTROL_SIZES = [(390, 844, True), (1280, 757, False), (1280, 720, False)]
CONTROL = """
const box = (selector) => document.querySelector(selector).getBoundingClientRect();
const form = document.querySelector('form.watch-progress');
const range = box('input[type=range]');
return {range: [range.top, range.bottom, range.width], save: box('.watch-progress__save').bottom,
        form: form.clientWidth, height: window.innerHeight, scrollY: window.scrollY,
        text: document.querySelector('output').textContent};
"""


@pytest.mark.parametrize("size", CONTROL_SIZES, ids=[f"{w}x{h}" for w, h, _ in CONTROL_SIZES])
def test_position_control_is_wide_and_in_view(browser, size):
    """The range spans the control's whole width (and keeps it when the time's text grows), and
    the range and Save position show under the poster without scrolling."""
    width, height, mobile = size
    film = max((item for item in browser.catalog.items if item["kind"] == "long"), key=lambda item: len(item["title"]))
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    try:
        browser.open(f"/watch/{film['id']}")
        browser.wait(lambda d: d.execute_script("return document.readyState") == "complete")
        seen = driver.execute_script(CONTROL)
        top, bottom, wide = seen["range"]
        problems = []
        if wide < seen["form"] - 1:
            problems.append(f"the range is {wide} px of the control's {seen['form']} px")
        if seen["scrollY"] != 0 or top < 0 or bottom > seen["height"] or seen["save"] > seen["height"]:
            problems.append(f"the range ({top}–{bottom}) or Save position (to {seen['save']}) is off the "
                            f"{seen['height']} px screen")
        assert not problems, f"at {width}x{height}: " + "; ".join(problems)
        if browser.javascript:
            move_position(browser, [Keys.END])
            browser.wait(lambda _: browser.find("form.watch-progress").get_attribute("data-saved"),
                         message="the position was not saved by the script")
            saved = driver.execute_script(CONTROL)
            assert "saved" in saved["text"]
            assert saved["range"][2] == wide, f"at {width}: the range went from {wide} to {saved['range'][2]} px " \
                                              f"when the time said {saved['text']!r}"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_my_list(browser):
    log = browser.log
    clip = browser.catalog.first("short")
    browser.open(f"/short/{clip['id']}")
    visitor = browser.visitor()
    mark = log.mark()
    browser.follow(browser.button("Add to My List"))
    browser.wait_for_path(f"/short/{clip['id']}")
    assert browser.button("Remove from My List")
    log.wait_for(mark, event="my_list_added", visitor=visitor, item=clip["id"])
    mark = log.mark()
    browser.follow(browser.button("Remove from My List"))
    browser.wait_for_path(f"/short/{clip['id']}")
    assert browser.button("Add to My List")
    log.wait_for(mark, event="my_list_removed", visitor=visitor, item=clip["id"])


def test_my_list_by_keyboard_keeps_the_focus_on_its_button(js_browser):
    """Enter on Add to My List comes back to the title's page with the focus on Remove from My
    List, and Enter again on Add: the keyboard user is not sent back to the top of the page."""
    browser = js_browser
    log = browser.log
    clip = browser.catalog.first("short")
    browser.open(f"/short/{clip['id']}")
    visitor = browser.visitor()
    mark = log.mark()
    for pressed, offered in (("Add to My List", "Remove from My List"), ("Remove from My List", "Add to My List")):
        browser.button(pressed).send_keys(Keys.ENTER)
        browser.wait(lambda d: d.execute_script("return document.activeElement?.textContent.trim()") == offered, 10,
                     f"after {pressed} the focus is not on {offered}")
    assert [e["event"] for e in log.matching(mark, visitor=visitor)] == ["my_list_added", "my_list_removed"]


def test_live_streams_have_no_play(browser):
    stream = browser.catalog.first("live")
    browser.open(f"/stream/{stream['id']}")
    assert not [b for b in browser.find_all("button") if b.text in ("Play", "Resume")]
    assert browser.button("Add to My List")
    assert browser.driver.find_elements(By.CSS_SELECTOR, ".item-screen__timing")


def test_home_rows(browser):
    """Play a film and move its position, add a clip to My List: the home shows both rows, with
    the bar; a row's title opens its page. In the list and in the grid."""
    film, clip = browser.catalog.first("long"), browser.catalog.first("short")
    browser.open("/")
    assert not browser.find_all(".personal-row"), "a new visitor has no rows"
    browser.open(f"/long/{film['id']}")
    browser.follow(browser.button("Play"))
    browser.wait_for_path(f"/watch/{film['id']}")
    move_position(browser, [Keys.HOME] + [Keys.ARROW_RIGHT] * 30)
    if browser.javascript:
        browser.wait(lambda d: browser.find("form.watch-progress").get_attribute("data-saved") == "30",
                     message="the position was not saved by the script")
    else:
        browser.follow(browser.button("Save position"))
    browser.open(f"/short/{clip['id']}")
    browser.follow(browser.button("Add to My List"))
    browser.wait_for_path(f"/short/{clip['id']}")
    for path in ("/?layout=list", "/?layout=grid"):
        browser.open(path)
        rows = {r.get_attribute("data-row-name"): r for r in browser.find_all(".personal-row")}
        assert list(rows) == ["continue-watching", "my-list"]
        watching = rows["continue-watching"]
        assert watching.find_element(By.CSS_SELECTOR, "h2").text == "Continue watching"
        assert [t.text for t in watching.find_elements(By.CSS_SELECTOR, ".personal-tile__title")] == [film["title"]]
        bar = watching.find_element(By.CSS_SELECTOR, "progress")
        assert bar.is_displayed() and bar.get_attribute("aria-label") == "Watched 0:30 of " + \
            (f"{film['durationMinutes'] // 60}:{film['durationMinutes'] % 60:02d}:00")
        listed = rows["my-list"]
        assert [t.text for t in listed.find_elements(By.CSS_SELECTOR, ".personal-tile__title")] == [clip["title"]]
    browser.follow(browser.find(".personal-row[data-row-name=my-list] .personal-tile__open"))
    browser.wait_for_path(f"/short/{clip['id']}")


def test_clear_history(browser):
    """Settings' Clear history empties the visitor's rows; the log keeps the events."""
    log = browser.log
    film = browser.catalog.first("long")
    visitor = play(browser, film)
    browser.open("/")
    assert [r.get_attribute("data-row-name") for r in browser.find_all(".personal-row")][:1] == ["continue-watching"]
    browser.open("/settings")
    mark = log.mark()
    browser.follow(browser.button("Clear history"))
    browser.wait_for_path("/settings")
    assert "Nothing played or listed" in browser.find(".settings-screen__history").text
    log.wait_for(mark, event="history_cleared", visitor=visitor)
    browser.open("/")
    names = [r.get_attribute("data-row-name") for r in browser.find_all(".personal-row")]
    assert "continue-watching" not in names and "my-list" not in names
    assert log.matching(0, event="play_started", visitor=visitor), "the log keeps what was cleared"


def test_trending_for_a_second_visitor(server, js_driver, nojs_driver):
    """What one visitor starts shows in Trending now for another, once the statistics have run
    (at start and then once a minute)."""
    from pages import fresh
    first = fresh(nojs_driver, server, False)
    clip = [i for i in first.catalog.items if i["kind"] == "short"][-1]
    first.open(f"/short/{clip['id']}")
    first.follow(first.button("Play"))
    first.wait_for_path(f"/watch/{clip['id']}")
    second = fresh(js_driver, server, True)

    def shown(_):
        second.open("/")
        titles = second.find_all(".personal-row[data-row-name=trending] .personal-tile__title")
        return clip["title"] in [t.text for t in titles]

    second.wait(shown, 90, "the title never showed in Trending now")
    assert second.find(".personal-row[data-row-name=trending] h2").text == "Trending now"
    assert not second.find_all(".personal-row[data-row-name=continue-watching]")


def test_back_to_the_home_shows_the_rows_as_they_are_now(js_browser):
    """Home, a title, Add to My List, then Back to the home: the page comes back as it was left,
    and the script brings the visitor's rows up to date, My List with the title; no launch."""
    browser = js_browser
    log = browser.log
    browser.open("/")
    visitor = browser.visitor()
    browser.follow(browser.find("button.list-row"))
    title = browser.find("h1").text
    browser.follow(browser.button("Add to My List"))
    browser.button("Remove from My List")
    mark = log.mark()
    for _ in range(2):  # the title's page before the post, then the home
        browser.driver.back()
    browser.wait_for_path("/")

    def listed(_):
        return [t.text for t in browser.find_all(".personal-row[data-row-name=my-list] .personal-tile__title")]

    browser.wait(listed, message="Back to the home did not show My List with the title")
    assert listed(None) == [title]
    browser.driver.execute_script("return new Promise((done) => setTimeout(done, 500))")
    assert not log.matching(mark, visitor=visitor), "Back wrote an event"


def test_back_to_a_title_shows_its_buttons_as_they_are_now(js_browser):
    """A title, Play, the position moved (the script saves it in place), then Back to the title's
    page: it comes back as it was left, and the script brings its buttons up to date, Resume and
    how much was watched, on a phone-sized window; Back writes nothing."""
    browser = js_browser
    log = browser.log
    driver = browser.driver
    film = browser.catalog.first("long")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 375, "height": 740, "deviceScaleFactor": 1, "mobile": True})
    try:
        visitor = play(browser, film)
        mark = log.mark()
        move_position(browser, [Keys.HOME] + [Keys.ARROW_RIGHT] * 90)
        browser.wait(lambda _: [e for e in log.matching(mark, event="play_progress", visitor=visitor)
                                if e["properties"]["position"] == "90"],
                     message="the position was not saved by the script")
        mark = log.mark()
        driver.back()
        browser.wait_for_path(f"/long/{film['id']}")
        browser.wait(lambda _: [b for b in browser.find_all(".item-screen__actions button") if b.text == "Resume"],
                     message="Back to the title's page still offers Play, not Resume")
        assert browser.find(".item-screen__progress").text.startswith("Watched 1:30 of")
        driver.execute_script("return new Promise((done) => setTimeout(done, 500))")
        assert not log.matching(mark, visitor=visitor), "Back wrote an event"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
