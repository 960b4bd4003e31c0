"""Search results are a home drawn for a query: "Show as grid/list" and "Settings" sit where they
sit on the home (at the start of the line, under the results' heading), at every width."""
import pytest

# Each toolbar button's place: its text and its left edge, top to bottom.
BUTTONS = """
return [...document.querySelectorAll('.home-toolbar__actions .button')].map((button) => {
  const box = button.getBoundingClientRect();
  return [button.textContent.trim(), Math.round(box.left)];
});
"""


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("layout", ["grid", "list"])
def test_search_results_toolbar_sits_where_the_homes_does(js_browser, width, layout):
    browser = js_browser
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        browser.open(f"/?layout={layout}")
        home = driver.execute_script(BUTTONS)
        browser.open(f"/search?q=the&layout={layout}")
        results = driver.execute_script(BUTTONS)
        assert results == home, f"results {results}, home {home}"
        heading = browser.find(".home-toolbar__heading").rect
        first = browser.find(".home-toolbar__actions .button").rect
        assert first["y"] >= heading["y"] + heading["height"], "the buttons are not under the heading"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
