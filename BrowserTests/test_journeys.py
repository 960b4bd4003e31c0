"""The journeys (home, layout swap, settings, onboarding, search), each with JavaScript on and off.

Every step checks what a person sees (URL, visible text, the data-controller tree) and the lines
the report log gains for this visitor.
"""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from pages import SCENES, SELECTED, follow_key

HOME_LIST = {"HomeContainer", "HomeContainer > ListHome"}
HOME_GRID = {"HomeContainer", "HomeContainer > GridHome"}


def titles_shown(browser, layout):
    css = ".list-row__title" if layout == "list" else ".grid-tile__title"
    return [e.get_attribute("textContent") for e in browser.find_all(f"[data-controller] {css}")]


def assert_home(browser, layout, path):
    browser.wait_for_path(path)
    if browser.javascript:  # a swap or a history step in place is done when the marker says so
        browser.wait(lambda d: d.execute_script("return document.documentElement.dataset.layout") == layout,
                     message=f"html[data-layout] is not {layout}")
    assert browser.tree() == (HOME_LIST if layout == "list" else HOME_GRID)
    # Every item of the catalogue is in the page, and the first ones can be seen.
    assert sorted(titles_shown(browser, layout)) == sorted(i["title"] for i in browser.catalog.items)
    toggle = browser.find("button[data-swap]")
    assert toggle.is_displayed()
    assert toggle.text == ("Show as grid" if layout == "list" else "Show as list")
    headings = browser.visible_texts(".home-section__title")
    assert headings, "no section heading can be seen"


def test_journey_1_list_grid_open_back(browser):
    """`/` is the list, `?layout=grid` the grid; a tile opens its item's page; Back returns."""
    log = browser.log
    mark = log.mark()
    browser.open("/")
    assert_home(browser, "list", "/")
    visitor = browser.visitor()
    log.wait_for(mark, event="launch", layout="list", visitor=visitor)

    mark = log.mark()
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    log.wait_for(mark, event="launch", layout="grid", visitor=visitor)

    # The first tile of the second row, whatever it is.
    tile = browser.find("#grid-tile-1-0 .grid-tile__open")
    title = tile.find_element(By.CSS_SELECTOR, ".grid-tile__title").text
    item = browser.catalog.by_title(title)
    mark = log.mark()
    browser.follow(tile)
    browser.wait_for_path(f"/{SCENES[item['kind']]}/{item['id']}")
    assert browser.find("h1").text == item["title"]
    assert item["description"] in browser.find(".item-screen__description").text
    assert browser.tree() == {"ItemScreen"}
    chosen = log.wait_for(mark, event=SELECTED[item["kind"]], visitor=visitor)
    assert [(e["layout"], e["item"]) for e in chosen] == [("grid", item["id"])]

    browser.driver.back()
    assert_home(browser, "grid", "/?layout=grid")


def test_journey_2_show_as_list(browser):
    """"Show as list" swaps the grid for the list (animated with JS); a reload keeps the list."""
    log = browser.log
    browser.open("/?layout=grid")
    assert_home(browser, "grid", "/?layout=grid")
    visitor = browser.visitor()
    mark = log.mark()
    toggle = browser.find("button[data-swap]")
    if browser.javascript:
        # Watch for the swap class, and mark this document: an in-page swap keeps the mark.
        browser.driver.execute_script("""
            window.__sameDocument = true; window.__sawSwapping = false;
            new MutationObserver(() => {
              if (document.documentElement.classList.contains('is-swapping')) window.__sawSwapping = true;
            }).observe(document.documentElement, {attributes: true, attributeFilter: ['class']});""")
        toggle.click()
        browser.wait(lambda d: d.execute_script(
            "return document.documentElement.dataset.layout === 'list'"
            " && !document.documentElement.classList.contains('is-swapping')"), 15,
            "the swap to the list did not finish (html[data-layout=list] without .is-swapping)")
        assert browser.driver.execute_script("return window.__sameDocument === true"), \
            "the page was reloaded instead of swapped in place"
        assert browser.driver.execute_script("return window.__sawSwapping"), "html never had .is-swapping"
    else:
        browser.follow(toggle)
    assert_home(browser, "list", "/?layout=list")
    replaced = log.wait_for(mark, event="layout_replaced", visitor=visitor)
    assert len(replaced) == 1
    assert replaced[0]["layout"] == "list" and replaced[0]["properties"]["from"] == "grid"

    browser.driver.refresh()
    assert_home(browser, "list", "/?layout=list")
    browser.open("/")
    assert_home(browser, "list", "/")


def test_journey_3_settings_choose_grid(browser):
    """Settings: choose Grid and save; `/` then shows the grid."""
    log = browser.log
    browser.open("/")
    assert_home(browser, "list", "/")
    visitor = browser.visitor()
    mark = log.mark()
    browser.follow(browser.button("Settings"))
    browser.wait_for_path("/settings")
    assert browser.tree() == {"SettingsScreen"}
    assert browser.find("h1").text == "Settings"
    selected = log.wait_for(mark, event="settings_selected", visitor=visitor)
    assert [e["layout"] for e in selected] == ["list"]

    radios = {r.get_attribute("value"): r for r in browser.find_all("input[type=radio][name=layout]")}
    assert radios["list"].is_selected() and not radios["grid"].is_selected()
    grid_label = browser.driver.find_element(By.XPATH, "//label[.//input[@value='grid']]")
    assert grid_label.text == "Grid"
    mark = log.mark()
    grid_label.click()
    assert radios["grid"].is_selected()
    browser.follow(browser.button("Save"))
    assert_home(browser, "grid", "/")
    chosen = log.wait_for(mark, event="layout_chosen", visitor=visitor)
    assert [(e["layout"], e["properties"]["via"]) for e in chosen] == [("grid", "settings")]

    browser.open("/settings")
    assert browser.find("input[value=grid]").is_selected()
    browser.open("/")
    assert_home(browser, "grid", "/")


def test_journey_5_search(browser):
    """An empty query shows the modal's message; a real query shows matches in the current layout."""
    log = browser.log
    browser.open("/")
    assert_home(browser, "list", "/")
    visitor = browser.visitor()
    browser.follow(browser.driver.find_element(By.LINK_TEXT, "Search"))
    browser.wait_for_path("/search")
    assert "HomeContainer" not in browser.tree() and any(p.endswith("TextInputController") for p in browser.tree())
    field = browser.visible(".modal__sheet input[name=q]")
    assert browser.find(f"label[for='{field.get_attribute('id')}']").text == "Find films, clips and live streams"

    # Empty: the browser's own check keeps the form from going anywhere.
    browser.button("Search", within=".modal__sheet").click()
    assert browser.path() == "/search"
    # Blank: the server's message, in the modal, tied to the field.
    field = browser.find(".modal__sheet input[name=q]")
    field.send_keys("   ")
    browser.follow(browser.button("Search", within=".modal__sheet"))
    browser.wait_for_path("/search?q=+++")
    error = browser.visible(".modal__sheet .text-input__error")
    assert error.text == "Type a word to search for."
    assert browser.find("input[name=q]").get_attribute("aria-describedby") == error.get_attribute("id")

    # A real word from the catalogue: exactly its matches, through the list.
    word = max(browser.catalog.items[0]["title"].split(), key=len).strip(".,:'")
    expected = browser.catalog.search(word)
    assert expected
    for layout in ("list", "grid"):
        if layout == "grid":  # make grid the visitor's layout the way a person would
            browser.open("/settings")
            browser.driver.find_element(By.XPATH, "//label[.//input[@value='grid']]").click()
            browser.follow(browser.button("Save"))
            assert_home(browser, "grid", "/")
            browser.follow(browser.driver.find_element(By.LINK_TEXT, "Search"))
            browser.wait_for_path("/search")
        mark = log.mark()
        field = browser.find(".modal__sheet input[name=q]")
        field.clear()
        field.send_keys(word)
        browser.follow(browser.button("Search", within=".modal__sheet"))
        browser.wait_for_path(f"/search?q={word}")
        child = "ListHome" if layout == "list" else "GridHome"
        assert browser.tree() == {"HomeContainer", f"HomeContainer > {child}"}
        assert browser.find(".home-toolbar__heading").text == f"Results for \u201c{word}\u201d"
        assert sorted(titles_shown(browser, layout)) == sorted(i["title"] for i in expected)
        submitted = log.wait_for(mark, event="search_submitted", visitor=visitor)
        assert [(e["layout"], e["properties"]["query"], e["properties"]["results"]) for e in submitted] == \
            [(layout, word, str(len(expected)))]
        assert not log.matching(mark, event="launch", visitor=visitor), "search results are not a launch"


def swap(browser, layout):
    """Presses "Show as LAYOUT" and waits until the page shows it."""
    toggle = browser.find("button[data-swap]")
    assert toggle.text == f"Show as {layout}"
    if browser.javascript:
        toggle.click()
        browser.wait(lambda d: d.execute_script(
            f"return document.documentElement.dataset.layout === '{layout}'"
            " && !document.documentElement.classList.contains('is-swapping')"), 15, f"the swap to the {layout} did not finish")
    else:
        browser.follow(toggle)


def written(browser, mark, visitor):
    """The events this visitor's steps since `mark` wrote. A home opened as a barrier comes
    last (a launch): once it is in the log, every line written before it is too."""
    barrier = browser.log.mark()
    browser.open("/?layout=list")
    browser.log.wait_for(barrier, event="launch", visitor=visitor)
    return [e["event"] for e in browser.log.matching(mark, visitor=visitor)][:-1]


def test_journey_6_close_search(browser):
    """The search box's close button (and Esc, with JavaScript) goes back to the page it was
    opened from; closing writes nothing but the launch of the home it shows again."""
    log = browser.log
    ways = ["close", "escape"] if browser.javascript else ["close"]
    for origin in ("/?layout=grid", f"/long/{browser.catalog.first('long')['id']}"):
        for way in ways:
            browser.open(origin)
            browser.wait_for_path(origin)
            visitor = browser.visitor()
            browser.follow(browser.driver.find_element(By.LINK_TEXT, "Search"))
            browser.wait_for_path("/search")
            mark = log.mark()
            if way == "close":
                close = browser.visible(".modal__close")
                assert close.get_attribute("aria-label") == "Close"
                browser.follow(close)
            else:
                follow_key(browser, Keys.ESCAPE)
            browser.wait_for_path(origin)
            assert "Method Not Allowed" not in browser.find("body").text
            if origin.startswith("/?"):
                assert_home(browser, "grid", origin)
                assert written(browser, mark, visitor) == ["launch"]
            else:
                assert browser.tree() == {"ItemScreen"}
                assert written(browser, mark, visitor) == []


@pytest.mark.parametrize("reload", [False, True], ids=["kept", "reloaded"])
def test_journey_7_back_and_forward_across_a_swap(browser, reload):
    """After "Show as grid", Back shows the list again and Forward the grid, on the home and on
    search results, with JavaScript as without; also after a reload of the grid, which leaves the
    page none of the other entries' content. Neither writes an event (no second launch or search)."""
    log = browser.log
    word = "live"
    expected = sorted(i["title"] for i in browser.catalog.search(word))
    for start, swapped in (("/", "/?layout=grid"), (f"/search?q={word}", f"/search?q={word}&layout=grid")):
        browser.driver.delete_cookie("layout")
        browser.open(start)
        assert_home(browser, "list", start) if start == "/" else browser.wait_for_path(start)
        visitor = browser.visitor()
        before = log.mark()
        swap(browser, "grid")
        browser.wait_for_path(swapped)
        if reload:
            browser.driver.refresh()
            browser.wait_for_path(swapped)
            if browser.javascript:
                browser.wait(lambda d: d.execute_script("return document.readyState") == "complete")
        elif start == "/":
            assert_home(browser, "grid", swapped)
        mark = log.mark()
        for step, path, layout in (("back", start, "list"), ("forward", swapped, "grid"), ("back", start, "list")):
            getattr(browser.driver, step)()
            browser.wait_for_path(path)
            if browser.javascript:
                browser.wait(lambda d: d.execute_script("return document.documentElement.dataset.layout") == layout,
                             message=f"{step} to {path} does not show the {layout}")
            if start == "/":
                assert_home(browser, layout, path)
            else:
                assert sorted(titles_shown(browser, layout)) == expected, f"{step} to {path}"
        assert written(browser, mark, visitor) == []
        assert len(log.matching(before, event="layout_replaced", visitor=visitor)) == 1
        if start != "/":
            assert len(log.matching(0, event="search_submitted", visitor=visitor)) == 1


def test_journey_8_layout_card_from_settings(browser):
    """Settings links to the layout card; closing it goes back to Settings, choosing goes home."""
    log = browser.log
    browser.open("/settings")
    browser.wait_for_path("/settings")
    visitor = browser.visitor()
    link = browser.find("a[href^='/onboarding/layout']")
    assert link.text == "See the layouts side by side"
    for way in ("close", "use"):
        mark = log.mark()
        browser.follow(browser.find("a[href^='/onboarding/layout']"))
        browser.wait(lambda _: browser.path().startswith("/onboarding/layout"))
        assert "LayoutChoice" in " ".join(browser.tree())
        if way == "close":
            browser.follow(browser.visible(".modal__close"))
            browser.wait_for_path("/settings")
            assert browser.tree() == {"SettingsScreen"}
            assert written(browser, mark, visitor) == []
            browser.open("/settings")
        else:
            browser.visible(".modal__sheet .onboarding__actions")  # the sheet has faded in
            browser.follow(browser.button("Use Grid"))
            assert_home(browser, "grid", "/")
            chosen = log.wait_for(mark, event="layout_chosen", visitor=visitor)
            assert [(e["layout"], e["properties"]["via"]) for e in chosen] == [("grid", "onboarding")]
