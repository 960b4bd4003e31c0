"""Every modal opens with its close button on the screen, on a phone and in a short window, with
JavaScript on and off: the page is not left scrolled past the sheet's top, and one box scrolls."""
import pytest

from pages import fresh

# Phone heights are what a 390 px phone shows between the browser's bars (a 390×844 window shows
# 701); 1280×600 is a short laptop window. Each is shorter than the layout card's sheet.
SIZES = [(390, 701, True), (390, 600, True), (1280, 600, False)]
MODALS = {"layout card": ("server", "/onboarding/layout?from=/settings"),
          "search": ("server", "/search?from=/settings"),
          "notice": ("server", "/onboarding?from=/settings"),
          "notice over the home": ("onboarding_server", "/")}

# The × as drawn, the page's scroll, and every box that would show a vertical scrollbar (the page's
# own unless the page hides it, any other whose overflow scrolls), and how much wider the page is.
MEASURE = """
const close = document.querySelector('.modal__close').getBoundingClientRect();
const root = document.documentElement;
const scrolling = [root, ...document.querySelectorAll('body *')].filter((box) => {
  const overflow = getComputedStyle(box).overflowY;
  const scrolls = box === root ? !['hidden', 'clip'].includes(overflow) : ['auto', 'scroll'].includes(overflow);
  return scrolls && box.scrollHeight > box.clientHeight;
}).map((box) => box === root ? 'html' : `${box.tagName.toLowerCase()}.${box.className}`);
return {close: [close.left, close.top, close.right, close.bottom], width: root.clientWidth,
        height: window.innerHeight, scrollY: window.scrollY, scrolling,
        wider: root.scrollWidth - root.clientWidth};
"""


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h, _ in SIZES])
@pytest.mark.parametrize("modal", list(MODALS))
def test_modal_opens_with_its_close_button_on_screen(modal, size, javascript, server, onboarding_server,
                                                     js_driver, nojs_driver, screenshots):
    which, path = MODALS[modal]
    width, height, mobile = size
    browser = fresh(js_driver if javascript else nojs_driver,
                    {"server": server, "onboarding_server": onboarding_server}[which], javascript)
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    try:
        browser.open(path)
        browser.visible(".modal__sheet")
        # Measured once the sheet has come in: where it ends up is what the visitor is left with.
        browser.wait(lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.getAnimations()"
            ".filter(a => a.effect?.getComputedTiming().iterations !== Infinity)"
            ".every(a => a.playState === 'finished')"))
        seen = driver.execute_script(MEASURE)
        driver.save_screenshot(str(screenshots / f"modal-{modal.replace(' ', '-')}-{width}x{height}-"
                                                 f"{'js' if javascript else 'nojs'}.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    left, top, right, bottom = seen["close"]
    assert top >= 0 and bottom <= seen["height"] and left >= 0 and right <= seen["width"], \
        f"{path} at {width}x{height}: the × is drawn at {seen['close']} (page scrolled {seen['scrollY']} px)"
    assert len(seen["scrolling"]) <= 1, f"{path} at {width}x{height}: more than one scrollbar: {seen['scrolling']}"
    assert seen["wider"] <= 0, f"{path} at {width}x{height} is {seen['wider']} px wider than the screen"
