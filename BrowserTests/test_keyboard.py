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


def test_closing_a_modal_gives_the_focus_back_to_its_link(js_browser):
    """The search box opened from the header and the layout card opened from Settings, each with
    Enter on its link and closed with Esc or ×: the focus is back on that link, where the
    keyboard user left the page, not at the top of it."""
    from pages import follow_key
    browser = js_browser
    for origin, css, way in (("/?layout=grid", "a.app-header__link[href='/search']", "escape"),
                             ("/settings", "a[href^='/onboarding/layout']", "escape"),
                             ("/settings", "a[href^='/onboarding/layout']", "close")):
        browser.open(origin)
        browser.wait_for_path(origin)
        link = browser.find(css)
        href = link.get_attribute("href")
        page = browser.find("html")
        link.send_keys(Keys.ENTER)
        browser.wait(lambda _: browser.find_all("[data-modal-dismiss]"), message=f"{css} opened no modal")
        if way == "escape":
            follow_key(browser, Keys.ESCAPE)
        else:
            close = browser.visible(".modal__close")
            close.send_keys(Keys.ENTER)
            browser.wait(lambda _: not browser.find_all("[data-modal-dismiss]"))
        browser.wait_for_path(origin)
        assert page.id != browser.find("html").id
        browser.wait(lambda _: focused(browser).get_attribute("href") == href,
                     message=f"closing the modal opened from {origin} left the focus on "
                             f"{focused(browser).tag_name} {focused(browser).get_attribute('class')!r}")
