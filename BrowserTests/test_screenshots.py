"""Screenshots of the home (list, grid, and with a visitor's rows), onboarding, the layout card, /reports and the admin pages at phone and laptop sizes, light and
dark, written to the folder printed at the end of the run ($BROWSER_SCREENSHOTS, else
BrowserTests/.screenshots). To refresh the kept set: BROWSER_SCREENSHOTS=docs/screenshots
python3 -m pytest BrowserTests/test_screenshots.py -q

Each shot also checks what a screenshot can hide: the stylesheet applied, nothing wider than the
screen, and the scheme really changing the colours."""
import pytest

from conftest import start_server
from pages import ROWS_VISITOR, fresh, rows_log

SCREENS = {"home-list": ("server", "/?layout=list"), "home-grid": ("server", "/?layout=grid"),
           "home-rows": ("rows_server", "/?layout=grid"),
           "onboarding": ("onboarding_server", "/"), "onboarding-layout": ("server", "/onboarding/layout"),
           "reports": ("server", "/reports"), "admin": ("server", "/admin"),
           "admin-review": ("server", "/admin"), "admin-history": ("server", "/admin/history"),
           "admin-content": ("server", "/admin/content"), "admin-content-history": ("server", "/admin/content/history"),
           "admin-experiment": ("server", "/admin/experiment?experiment=home-hero&action=stop")}
PREVIEW_VISITOR = "0123456789abcdef0123456789abcdef"


def review_grid(browser):
    """The review a post answers: the default layout changed to grid, with a visitor's preview."""
    browser.find("input[name='defaultLayout'][value='grid']").click()
    browser.find("#field-previewVisitor").send_keys(PREVIEW_VISITOR)
    browser.follow(browser.button("Review the difference"))


def as_rows_visitor(browser):
    """The browser as ROWS_VISITOR, once the statistics (made at start) give both shared-based rows."""
    browser.driver.execute_cdp_cmd("Network.setCookie", {"name": "visitor", "value": ROWS_VISITOR, "url": browser.server.url})

    def every_row(driver):
        driver.get(browser.server.url + "/?layout=grid")
        names = driver.execute_script(
            "return [...document.querySelectorAll('.personal-row')].map(r => r.dataset.rowName)")
        return names == ["continue-watching", "my-list", "because-you-watched", "trending"]
    browser.wait(every_row, 60)


@pytest.fixture(scope="module")
def rows_server(tmp_path_factory):
    """A server whose report log gives ROWS_VISITOR rows of their own and everyone Trending now."""
    server = start_server(tmp_path_factory, "rows", onboarding=False, log_lines=rows_log())
    yield server
    server.stop()


# What is done before the path is opened.
BEFORE = {"home-rows": as_rows_visitor}
# Screens reached from their path by what an operator does there.
STEPS = {"admin-review": review_grid}
# What "styled" means per screen: the layout the CSS must give these elements.
FLEX = ("flex", "grid", "inline-flex")
HEADER = (".app-header", "display", FLEX)
STYLED = {"home-list": [HEADER, (".list-row", "display", FLEX)],
          "home-grid": [HEADER, (".grid-row__tiles", "display", FLEX),
                        (".grid-row__tiles", "overflowX", ("auto", "scroll"))],
          "home-rows": [HEADER, (".personal-row__tiles", "display", FLEX),
                        (".personal-row__tiles", "overflowX", ("auto", "scroll"))],
          "onboarding": [HEADER, (".modal", "position", ("fixed",)), (".onboarding__actions", "display", FLEX)],
          "onboarding-layout": [(".onboarding__actions", "display", FLEX)],
          "reports": [HEADER, (".reports__title", "display", FLEX)],
          "admin": [HEADER, (".admin-form__set", "display", FLEX)],
          "admin-review": [HEADER, (".admin-diff", "overflowX", ("auto",)), (".admin-form", "display", FLEX)],
          "admin-history": [HEADER, (".admin__nav", "display", FLEX), (".admin-history", "paddingLeft", ("24px",))],
          "admin-content": [HEADER, (".admin__nav", "display", FLEX), (".admin-form", "display", FLEX)],
          "admin-content-history": [HEADER, (".admin__nav", "display", FLEX), (".admin-history", "paddingLeft", ("24px",))],
          "admin-experiment": [HEADER, (".admin-diff", "overflowX", ("auto",)), (".admin-form", "display", FLEX)]}
SIZES = {"390": (390, 844, True), "1280": (1280, 800, False)}  # named as in docs/screenshots
# Screens taller than the window, shown whole.
HEIGHTS = {"home-rows": {"390": 1720, "1280": 1360}}


@pytest.fixture(scope="module")
def background(request):
    """Body background per (screen, size, scheme), to compare light with dark."""
    return {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screenshot(screen, size, scheme, server, onboarding_server, rows_server, js_driver, screenshots, background):
    which, path = SCREENS[screen]
    width, height, mobile = SIZES[size]
    height = HEIGHTS.get(screen, {}).get(size, height)
    servers = {"server": server, "onboarding_server": onboarding_server, "rows_server": rows_server}
    browser = fresh(js_driver, servers[which], True)
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    if screen == "reports" and not browser.log.events():
        browser.open("/?layout=grid")  # a report log with something in it
    if screen in BEFORE:
        BEFORE[screen](browser)
    browser.open(path)
    if screen in STEPS:
        STEPS[screen](browser)
    # Lazy images clipped by a scroller may never load; load them all so none is caught half-way.
    driver.execute_script("document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })")
    browser.wait(lambda d: d.execute_script(
        "return document.readyState === 'complete' && [...document.images].every(i => i.complete)"
        " && document.fonts.status === 'loaded'"))
    # A sheet fading in is not caught half-way (endless ones, the live pulse, are left running).
    browser.wait(lambda d: d.execute_script(
        "return document.getAnimations().filter(a => a.effect?.getComputedTiming().iterations !== Infinity)"
        ".every(a => a.playState === 'finished')"))
    if screen == "reports":
        browser.wait(lambda d: d.find_element("css selector", "[data-live-status]").text == "Live")

    target = screenshots / f"{screen}-{size}-{scheme}.png"
    assert driver.save_screenshot(str(target))
    assert target.stat().st_size > 5000
    for selector, property, values in STYLED[screen]:
        value = driver.execute_script(
            f"const e = document.querySelector('{selector}'); return e && getComputedStyle(e).{property}")
        assert value in values, f"{path}: {selector} has {property} {value}: app.css does not style it"
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path} at {size} is {overflow}px wider than the screen"
    laid_out = driver.execute_script("return window.innerWidth")
    assert laid_out == width, f"{path} is laid out {laid_out}px wide on a {width}px screen: something is too wide"

    if screen == "home-rows":
        # Every bar drawn, with its share filled, and every title legible on its background.
        bars = driver.execute_script(
            "return [...document.querySelectorAll('.personal-tile__progress')].map(b => [b.offsetWidth, b.offsetHeight, b.value])")
        assert len(bars) == 3 and all(w > 20 and h >= 2 and v > 0 for w, h, v in bars), bars
        # The sheet draws the bar (the native one's fill did not show in the dark scheme).
        look = driver.execute_script("return getComputedStyle(document.querySelector('.personal-tile__progress')).appearance")
        assert look == "none", look
        titles = driver.execute_script(
            "return [...document.querySelectorAll('.personal-tile__title')].slice(0, 4)"
            ".map(t => [getComputedStyle(t).color, t.offsetHeight])")
        assert all(height > 0 for _, height in titles), titles

    colour = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    background[(screen, size, scheme)] = colour
    other = background.get((screen, size, "light" if scheme == "dark" else "dark"))
    if other is not None:
        assert colour != other, f"{path}: light and dark have the same background {colour}"

