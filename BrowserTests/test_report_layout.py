"""The report pages' layout at every width, light and dark: the filter row of /reports lines up
(a label that wraps, "To (UTC day, included)", pushed its field out of line), and the experiments
table on /reports/experiments fits: on a 390 px phone as one card per group, each figure labelled
with its column's heading, instead of being clipped and scrolling sideways; on a desktop whole.
Screenshots go to the screenshot folder as report-filter-<width>-<scheme>.png and experiments-table-<width>-<scheme>.png."""
import pytest

from conftest import start_server
from pages import fresh
from test_experiments import TOGGLES, earlier_days

WIDTHS = [390, 560, 768, 1024, 1280]


@pytest.fixture(scope="module")
def reports_server(tmp_path_factory):
    lines, _ = earlier_days()
    server = start_server(tmp_path_factory, "report-layout", onboarding=False, toggles=TOGGLES, log_lines=lines)
    yield server
    server.stop()


def open_at(driver, server, path, width, scheme):
    browser = fresh(driver, server, True)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    browser.open(path)
    browser.wait(lambda d: d.execute_script("return document.readyState === 'complete' && document.fonts.status === 'loaded'"))
    return browser


# Each field's label and control boxes, with the actions' buttons, grouped into the lines they sit on.
FILTER_ROWS = """
const boxes = [...document.querySelectorAll('.reports-filter .field')].map((field) => {
  const label = field.querySelector('.field__label').getBoundingClientRect();
  const control = field.querySelector('input, select').getBoundingClientRect();
  return {name: field.querySelector('input, select').name, labelBottom: label.bottom,
          top: control.top, bottom: control.bottom, right: control.right};
});
const buttons = [...document.querySelectorAll('.reports-filter__actions .button')].map((b) => {
  const r = b.getBoundingClientRect(); return {name: b.textContent, top: r.top, bottom: r.bottom};
});
return {boxes, buttons, form: document.querySelector('.reports-filter').getBoundingClientRect().right};
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_filter_row_lines_up_at_every_width(reports_server, js_driver, screenshots, width, scheme):
    driver = js_driver
    open_at(driver, reports_server, "/reports", width, scheme)
    target = screenshots / f"report-filter-{width}-{scheme}.png"
    assert driver.save_screenshot(str(target))
    found = driver.execute_script(FILTER_ROWS)
    lines = []
    for box in found["boxes"]:
        line = next((line for line in lines if abs(line[0]["bottom"] - box["bottom"]) < 40 and abs(line[0]["top"] - box["top"]) < 40), None)
        (line.append(box) if line else lines.append([box]))
    for line in lines:
        names = [box["name"] for box in line]
        assert max(b["top"] for b in line) - min(b["top"] for b in line) <= 1, f"{width}px: controls {names} start at different heights: {line}"
        assert max(b["labelBottom"] for b in line) - min(b["labelBottom"] for b in line) <= 1, f"{width}px: labels of {names} end at different heights: {line}"
        assert max(b["bottom"] for b in line) - min(b["bottom"] for b in line) <= 1, f"{width}px: controls {names} end at different heights"
    for box in found["boxes"]:
        assert box["right"] <= found["form"] + 1, f"{width}px: {box['name']} sticks out of the form"
    # The buttons sit on a control's line, or on their own below the last.
    controls = [(b["top"], b["bottom"]) for b in found["boxes"]]
    for button in found["buttons"]:
        on_a_line = any(abs(button["bottom"] - bottom) <= 1 for _, bottom in controls)
        below = button["top"] >= max(bottom for _, bottom in controls)
        assert on_a_line or below, f"{width}px: the {button['name']} button is out of line: {button} vs {controls}"
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/reports at {width}px is {overflow}px wider than the screen"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_experiments_table_fits(reports_server, js_driver, screenshots, width, scheme):
    driver = js_driver
    open_at(driver, reports_server, "/reports/experiments", width, scheme)
    target = screenshots / f"experiments-table-{width}-{scheme}.png"
    assert driver.save_screenshot(str(target))
    tables = driver.execute_script("""
        return [...document.querySelectorAll('.experiment__table')].map((table) => {
          const wrapper = table.closest('.table-scroll');
          const headings = [...table.tHead.rows[0].cells].map((th) => th.textContent.trim());
          const cells = [...table.tBodies[0].rows].flatMap((row) => [...row.cells].map((cell, index) => ({
            index, heading: headings[index], shown: getComputedStyle(cell).display !== 'none',
            label: getComputedStyle(cell, '::before').content,
            right: cell.getBoundingClientRect().right, text: cell.textContent.trim()})));
          return {scroll: wrapper.scrollWidth - wrapper.clientWidth, right: wrapper.getBoundingClientRect().right,
                  width: window.innerWidth, headings, cells};
        });
    """)
    assert tables, "no experiment table on the page"
    for table in tables:
        assert table["scroll"] <= 0, f"the experiments table scrolls sideways by {table['scroll']}px at {width}px"
        for cell in table["cells"]:
            assert cell["right"] <= table["width"], f"{cell} is clipped at {width}px"
            if width < 768 and cell["index"] > 0 and cell["shown"] and cell["text"]:
                # A stacked figure is labelled with its column's heading (the group's name heads its card).
                assert cell["label"] == f'"{cell["heading"]}"', f"{cell['text']!r} is labelled {cell['label']}, its column is {cell['heading']!r}"
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/reports/experiments at {width}px is {overflow}px wider than the screen"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
