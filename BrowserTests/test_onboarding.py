"""The onboarding onion over the home, with JavaScript on and off."""
import pytest

from test_journeys import HOME_LIST, assert_home

ONION = HOME_LIST | {"HomeContainer > ModalContainer",
                     "HomeContainer > ModalContainer > OnboardingTemplate",
                     "HomeContainer > ModalContainer > OnboardingTemplate > NewYearContent"}


@pytest.fixture(scope="module")
def server(onboarding_server):
    """Every test here runs against a server whose toggles turn onboarding on."""
    return onboarding_server


def first_visit(browser):
    mark = browser.log.mark()
    browser.open("/")
    browser.wait_for_path("/")
    assert browser.tree() == ONION
    dialog = browser.visible("[role=dialog][aria-modal=true]")
    assert dialog.find_element("css selector", "h1").text == "Short day on New Year's Eve"
    assert "open until 18:00" in dialog.text
    visitor = browser.visitor()
    shown = browser.log.wait_for(mark, event="onboarding_shown", visitor=visitor)
    assert [e["layout"] for e in shown] == ["list"]
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
