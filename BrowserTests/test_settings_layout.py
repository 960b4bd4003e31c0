"""Settings as a person sees it: once a layout is chosen, "Reset to the default" sits under Save,
and the Viewing history heading keeps the same room from it as it has from Save when there is no
reset (the button's form is `display: contents`, so nothing else spaces them)."""
import pytest

from selenium.webdriver.common.by import By

GAP = """
const heading = document.getElementById('history-heading').getBoundingClientRect();
const buttons = [...document.querySelectorAll('.settings-screen__body .button')];
const above = buttons.filter((b) => b.getBoundingClientRect().bottom <= heading.top + 1).pop();
return {gap: heading.top - above.getBoundingClientRect().bottom, above: above.textContent};
"""


@pytest.mark.parametrize("width", [390, 1280])
def test_viewing_history_keeps_its_room_under_the_reset_button(js_browser, width):
    browser = js_browser
    browser.driver.set_window_size(width, 900)
    browser.open("/settings")
    unchosen = browser.driver.execute_script(GAP)
    assert unchosen["above"] == "Save"
    browser.driver.find_element(By.XPATH, "//label[.//input[@value='grid']]").click()
    browser.follow(browser.button("Save"))
    browser.open("/settings")
    chosen = browser.driver.execute_script(GAP)
    assert chosen["above"] == "Reset to the default"
    assert chosen["gap"] >= unchosen["gap"] - 1, f"{chosen} against {unchosen} without the reset button"
    assert chosen["gap"] >= 12, chosen
