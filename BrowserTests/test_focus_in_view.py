"""A keyboard user on a phone: each Tab scrolls the page just enough to show the control it
focuses, and the focus ring drawn around it (outline and offset) shows whole with it."""
import pytest

from selenium.webdriver.common.keys import Keys

from pages import focused, press_key

# Where the focused element's ring reaches past the visible part of the page or of a box that
# clips it (a row scrolled sideways), in pixels per side; empty when it shows whole.
RING_CUT = """
const element = document.activeElement;
const style = getComputedStyle(element);
const reach = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
const box = element.getBoundingClientRect();
const ring = {left: box.left - reach, top: box.top - reach, right: box.right + reach, bottom: box.bottom + reach};
const cut = {};
const check = (name, limit) => {
  for (const side of ['left', 'top']) if (ring[side] < limit[side] - 0.5) cut[`${side} (${name})`] = limit[side] - ring[side];
  for (const side of ['right', 'bottom']) if (ring[side] > limit[side] + 0.5) cut[`${side} (${name})`] = ring[side] - limit[side];
};
check('window', {left: 0, top: 0, right: innerWidth, bottom: innerHeight});
for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
  const overflow = getComputedStyle(box);
  if (overflow.overflowX === 'visible' && overflow.overflowY === 'visible') continue;
  const edge = box.getBoundingClientRect();
  const left = edge.left + box.clientLeft, top = edge.top + box.clientTop;
  check(box.className || box.tagName, {left, top, right: left + box.clientWidth, bottom: top + box.clientHeight});
}
return {ring: (element.className || element.tagName) + ' ' + (element.textContent || '').trim().slice(0, 30), cut};
"""


@pytest.mark.parametrize("path", ["/?layout=grid", "/?layout=list", "/search?q=the&layout=grid",
                                  "/search?q=the&layout=list", "title"])
def test_each_tab_shows_the_focus_ring_whole_on_a_phone(browser, path):
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 375, "height": 740, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.open(f"/long/{browser.catalog.first('long')['id']}" if path == "title" else path)
        browser.find("body")
        cuts, seen = [], 0
        for _ in range(80):
            press_key(browser, Keys.TAB)
            if focused(browser).tag_name == "body":
                break
            seen += 1
            found = driver.execute_script(RING_CUT)
            if found["cut"]:
                cuts.append(found)
        assert seen > 3, f"only {seen} tab stops on {path}"
        assert not cuts, cuts
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
