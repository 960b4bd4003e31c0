"""A visitor's rows spliced into the cached page, as Chromium gets it: in brotli (asked for alone,
so the server answers from the brotli form made for the rows' padded length) and in the gzip a
browser takes by default, the page Chromium builds is the one it builds from the page drawn for
the visitor uncompressed."""
import urllib.request

import pytest

from conftest import start_server
from pages import ROWS_VISITOR, fresh, rows_log


@pytest.fixture(scope="module")
def rows_server(tmp_path_factory):
    server = start_server(tmp_path_factory, "spliced", onboarding=False, log_lines=rows_log())
    yield server
    server.stop()


def drawn(server, path):
    """The page drawn for the visitor, uncompressed, fetched outside the browser."""
    request = urllib.request.Request(server.url + path + "&row=99&at=0", headers={"Cookie": f"visitor={ROWS_VISITOR}"})
    return urllib.request.urlopen(request).read().decode()


@pytest.mark.parametrize("encoding", ["br", "gzip, deflate, br"])
def test_chromium_decodes_the_spliced_page(encoding, rows_server, js_driver):
    browser = fresh(js_driver, rows_server, True)
    driver = browser.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": encoding}})
    driver.execute_cdp_cmd("Network.setCookie", {"name": "visitor", "value": ROWS_VISITOR, "url": rows_server.url})
    try:
        path = "/?layout=grid"
        names = "return [...document.querySelectorAll('.personal-row')].map(r => r.dataset.rowName)"
        sizes = []

        def settled(driver):
            # The first response with rows is compressed per response while the form for their length
            # is made; then the same spliced bytes each time.
            driver.get(rows_server.url + path)
            if driver.execute_script(names) != ["continue-watching", "my-list", "because-you-watched", "trending"]:
                return False
            sizes.append(driver.execute_script(
                "const n = performance.getEntriesByType('navigation')[0]; return [n.encodedBodySize, n.decodedBodySize]"))
            return len(sizes) >= 3 and sizes[-1] == sizes[-2] and sizes[-1][0] < sizes[-1][1]
        browser.wait(settled, 60)
        spliced = driver.execute_script("return document.documentElement.outerHTML")
        expected = drawn(rows_server, path)
        assert sizes[-1][1] == len(expected.encode()), "the decoded body is the drawn page's length"
        # The same bytes give the same document: the drawn page, parsed by Chromium too.
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": "identity"}})
        driver.get(rows_server.url + path + "&row=99&at=0")
        assert driver.execute_script("return document.documentElement.outerHTML") == spliced
    finally:
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
