"""The onboarding onion over the home, with JavaScript on and off."""
import pytest

from pages import focused
from test_journeys import HOME_GRID, HOME_LIST, assert_home

ONION = HOME_LIST | {"HomeContainer > ModalContainer",
                     "HomeContainer > ModalContainer > OnboardingTemplate",
                     "HomeContainer > ModalContainer > OnboardingTemplate > NewYearContent"}


@pytest.fixture(scope="module")
def server(onboarding_server):
    """Every test here runs against a server whose toggles turn onboarding on."""
    return onboarding_server


def first_visit(browser, path="/", layout="list"):
    mark = browser.log.mark()
    browser.open(path)
    browser.wait_for_path(path)
    home = HOME_LIST if layout == "list" else HOME_GRID
    assert browser.tree() == (ONION - HOME_LIST) | home
    dialog = browser.visible("[role=dialog][aria-modal=true]")
    assert dialog.find_element("css selector", "h1").text == "New Year's Eve, live"
    assert "streams live" in dialog.text and "pizza" not in dialog.text.lower()
    # Keyboard and screen-reader users start in the dialog: it has the focus.
    assert focused(browser).get_attribute("role") == "dialog"
    visitor = browser.visitor()
    shown = browser.log.wait_for(mark, event="onboarding_shown", visitor=visitor)
    assert [e["layout"] for e in shown] == [layout]
    return visitor


def assert_gone_for_good(browser, visitor, mark):
    assert_home(browser, "list", "/")
    assert not browser.find_all("[role=dialog]")
    assert browser.log.wait_for(mark, event="onboarding_dismissed", visitor=visitor)
    browser.driver.refresh()
    assert_home(browser, "list", "/")
    assert not browser.find_all("[data-controller=ModalContainer]")
    browser.open("/?layout=grid")
    assert not browser.find_all("[data-controller=ModalContainer]")
    assert len(browser.log.matching(0, event="onboarding_shown", visitor=visitor)) == 1
    assert len(browser.log.matching(0, event="onboarding_dismissed", visitor=visitor)) == 1


@pytest.mark.parametrize("exit", ["close", "OK, got it"])
def test_journey_4_onboarding_dismissed(browser, exit):
    """A first visit shows the onion; the close button (or, in a fresh session, "OK, got it")
    dismisses it, and it does not come back for that visitor."""
    visitor = first_visit(browser)
    mark = browser.log.mark()
    if exit == "close":
        button = browser.find("[data-controller=ModalContainer] .modal__close")
        assert button.get_attribute("aria-label") == "Close"
    else:
        button = browser.button("OK, got it", within="[data-controller=OnboardingTemplate] .onboarding__actions")
    assert button.is_displayed()
    browser.follow(button)
    assert_gone_for_good(browser, visitor, mark)


def test_journey_4b_notice_closes_back_to_the_home_it_covered(browser):
    """Over /?layout=grid, closing the notice (with Esc too, with JavaScript) leaves the visitor
    on /?layout=grid, not on their default home; one onboarding_dismissed, nothing else."""
    from selenium.webdriver.common.keys import Keys
    from pages import follow_key
    visitor = first_visit(browser, "/?layout=grid", "grid")
    mark = browser.log.mark()
    if browser.javascript:
        follow_key(browser, Keys.ESCAPE)
    else:
        browser.follow(browser.find("[data-controller=ModalContainer] .modal__close"))
    assert_home(browser, "grid", "/?layout=grid")
    assert not browser.find_all("[role=dialog]")
    browser.log.wait_for(mark, event="launch", visitor=visitor)
    assert [e["event"] for e in browser.log.matching(mark, visitor=visitor)] == ["onboarding_dismissed", "launch"]


def test_tab_stays_in_the_notice_over_the_home(browser):
    """Tab goes from the notice to its buttons and never on to the home it covers, which cannot
    be seen or used until the notice is closed: with JavaScript as without."""
    from selenium.webdriver.common.keys import Keys
    from pages import press_key
    first_visit(browser)
    reached = []
    for _ in range(8):
        press_key(browser, Keys.TAB)
        reached.append(browser.driver.execute_script("""
            const e = document.activeElement;
            return e === document.body || e.closest('[role=dialog]') ? null : e.outerHTML.slice(0, 80);"""))
    assert not [e for e in reached if e], f"Tab left the notice for the home under it: {reached}"
