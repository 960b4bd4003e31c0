"""A keyboard user's way through the grid: a skip link first, then one tab stop per tile."""
from selenium.webdriver.common.keys import Keys

from pages import focused, press_key
from test_journeys import assert_home


def test_skip_link_and_one_tab_stop_per_tile(browser):
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    browser.find("body")  # the page has loaded; focus starts at the document
    press_key(browser, Keys.TAB)
    skip = focused(browser)
    assert skip.text == "Skip to content" and skip.get_attribute("href").endswith("#content")
    assert skip.is_displayed() and skip.size["width"] > 50, "the skip link does not show when focused"
    press_key(browser, Keys.ENTER)
    browser.wait(lambda _: focused(browser).get_attribute("id") == "content", message="the skip link did not move the focus")

    live = [i for i in browser.catalog.items if i["kind"] == "live"]
    seen = []
    for _ in range(len(browser.catalog.items) + 10):
        press_key(browser, Keys.TAB)
        element = focused(browser)
        tile = element.get_attribute("class") or ""
        seen.append(element.get_attribute("value") if "grid-tile__open" in tile else element.text or tile)
        if "grid-tile__open" in tile and element.get_attribute("value") == "1.0":
            break
    # The toolbar's two buttons, the live row's "More", each live tile once, the films' "More",
    # then the first film.
    assert seen[:3] == ["Show as list", "Settings", "More"], seen
    assert seen[3:3 + len(live)] == [f"0.{n}" for n in range(len(live))], seen
    assert seen[3 + len(live):] == ["More", "1.0"], seen
