"""What a person sees, as the tests read it: the page's URL, visible text, the data-controller tree."""
import datetime
import unicodedata
from html.parser import HTMLParser
from urllib.parse import urlsplit

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

SCENES = {"long": "long", "short": "short", "live": "stream"}
SELECTED = {"long": "long_selected", "short": "short_selected", "live": "stream_selected"}


class Catalog:
    """The content the server was started with, to know what a page should show."""

    def __init__(self, document):
        self.items = document["items"]
        self.by_id = {item["id"]: item for item in self.items}

    def by_title(self, title):
        found = [item for item in self.items if item["title"] == title]
        assert len(found) == 1, f"expected one item titled {title!r}, found {len(found)}"
        return found[0]

    def first(self, kind):
        return next(item for item in self.items if item["kind"] == kind)

    @staticmethod
    def fold(text):
        text = unicodedata.normalize("NFKD", text.replace("\u2019", "'"))
        return "".join(c for c in text if not unicodedata.combining(c)).casefold()

    def search(self, query):
        words = self.fold(query).split()
        return [item for item in self.items
                if all(word in self.fold(f"{item['title']} {item['description']}") for word in words)]


class _Controllers(HTMLParser):
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack = []  # (tag, controller path or None)
        self.paths = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        controller = dict(attrs).get("data-controller")
        outer = next((path for _, path in reversed(self.stack) if path), ())
        path = outer + (controller,) if controller else None
        if path:
            self.paths.append(" > ".join(path))
        self.stack.append((tag, path))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return


def controller_tree(html):
    """Every data-controller element as its path from the outermost, e.g. 'HomeContainer > GridHome'."""
    parser = _Controllers()
    parser.feed(html)
    return set(parser.paths)


class Browser:
    """One driver, one server, as a person would use them."""

    def __init__(self, driver, server, javascript):
        self.driver = driver
        self.server = server
        self.javascript = javascript
        self.log = server.log
        self.catalog = server.catalog

    def open(self, path):
        self.driver.get(self.server.url + path)

    def wait(self, condition, timeout=10, message=""):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition, message)

    def path(self):
        """The address bar without scheme and host: '/?layout=grid'."""
        parts = urlsplit(self.driver.current_url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def wait_for_path(self, path, timeout=10):
        self.wait(lambda _: self.path() == path, timeout, f"expected the URL {path}")
        if self.javascript:
            self.wait(lambda d: d.execute_script("return document.readyState") == "complete", timeout)

    def tree(self):
        return controller_tree(self.driver.page_source)

    def visible(self, css, timeout=10):
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, css)), timeout, f"{css} visible")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visible_texts(self, css):
        return [e.text for e in self.find_all(css) if e.is_displayed()]

    def button(self, text, within="body", timeout=10):
        """The visible button whose text (or accessible label) is `text`, waited for: a page that
        fades in, or is still being laid out on a busy machine, shows it a moment later."""
        def shown(_):
            for element in self.find_all(f"{within} button"):
                try:
                    label = element.text.strip() or (element.get_attribute("aria-label") or "")
                    if label == text and element.is_displayed():
                        return element
                except StaleElementReferenceException:
                    continue
            return False
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(shown)
        except TimeoutException:
            raise AssertionError(f"no visible button {text!r} in {within}") from None

    def follow(self, element, timeout=15):
        """Clicks `element` and waits until the browser has left the current document."""
        page = self.find("html")
        element.click()

        def left(_):
            try:
                page.is_enabled()
                return False
            except StaleElementReferenceException:
                return True
            except WebDriverException as error:  # chromedriver, mid-navigation
                return "does not belong to the document" in str(error)

        self.wait(left, timeout, "the click did not load a new page")

    def visitor(self):
        cookie = self.driver.get_cookie("visitor")
        assert cookie, "the server set no visitor cookie"
        return cookie["value"]


def fresh(driver, server, javascript):
    """The shared driver as a new visitor: one window, no cookies, default size and scheme."""
    handles = driver.window_handles
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.set_window_size(1280, 800)
    driver.get("about:blank")
    return Browser(driver, server, javascript)


def press_key(browser, key):
    """Sends `key` to the focused element, as a person's key press."""
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(browser.driver).send_keys(key).perform()


def follow_key(browser, key, timeout=15):
    """Presses `key` and waits until the browser has left the current document."""
    page = browser.find("html")
    press_key(browser, key)
    browser.wait(EC.staleness_of(page), timeout, f"{key!r} did not load a new page")


def focused(browser):
    """The focused element."""
    return browser.driver.switch_to.active_element


ROWS_VISITOR = "feedc0de0123456789abcdef01234567"


def rows_log():
    """A report log in which ROWS_VISITOR started three films (part-way through each) and listed
    four titles, and other visitors started films in the last hours: Continue watching with its
    bars, My List, Because you watched and Trending now, all from the log read at start."""
    now = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=2)
    lines = []

    def event(name, item, visitor, **properties):
        stamp = (now + datetime.timedelta(seconds=len(lines))).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        line = {"timestamp": stamp, "event": name, "item": item, "visitor": visitor}
        if properties:
            line["properties"] = {key: str(value) for key, value in properties.items()}
        lines.append(line)

    for index, films in enumerate([["m-004", "m-008", "m-010"], ["m-004", "m-008"], ["m-004", "m-012"],
                                   ["m-010", "m-008", "m-013"], ["m-002", "m-004"], ["m-009", "m-008"]]):
        for film in films:
            event("play_started", film, f"{index:032x}", duration=5400)
    for film, share in [("m-005", 0.8), ("m-003", 0.45), ("m-004", 0.15)]:
        event("play_started", film, ROWS_VISITOR, duration=5400)
        event("play_progress", film, ROWS_VISITOR, position=int(5400 * share), duration=5400)
    for item in ["m-011", "s-003", "m-001", "s-001"]:
        event("my_list_added", item, ROWS_VISITOR)
    return lines
