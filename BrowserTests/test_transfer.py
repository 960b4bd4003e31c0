"""What a visitor downloads: the first visit of the list and of the grid fits in 40 KB over the
wire (pages, stylesheet, script and posters compressed), a second visit in 10 KB with no request
for a stylesheet, script or image (all cached for a year under fingerprinted names), and nothing
moves as the page loads (cumulative layout shift 0)."""
import time
import urllib.request

import pytest

from conftest import make_driver, wait_until

FIRST_VISIT_LIMIT = 40 * 1024
SECOND_VISIT_LIMIT = 10 * 1024

# Resource Timing: transferSize is what came over the network, headers included; 0 when the
# browser answered from its cache without asking the server.
TRANSFERS = """
const navigation = performance.getEntriesByType('navigation')[0];
return {
  page: navigation.transferSize,
  resources: performance.getEntriesByType('resource').map(r => ({
    url: r.name, type: r.initiatorType, transfer: r.transferSize, body: r.encodedBodySize})),
};
"""

# The page's cumulative layout shift, and for each shift what moved, from where to where.
LAYOUT_SHIFT = """
const done = arguments[arguments.length - 1];
let shift = 0;
const moved = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    shift += entry.value;
    for (const source of entry.sources) {
      const node = source.node;
      moved.push({at: Math.round(entry.startTime), value: entry.value,
                  node: node && node.outerHTML ? node.outerHTML.slice(0, 160) : String(node),
                  from: source.previousRect.toJSON(), to: source.currentRect.toJSON()});
    }
  }
}).observe({type: 'layout-shift', buffered: true});
setTimeout(() => done({shift, moved}), 300);
"""


@pytest.fixture
def cold_driver():
    """A browser of its own: a new profile, so an empty cache."""
    driver = make_driver(javascript=True)
    yield driver
    driver.quit()


def settle(driver):
    """Waits until the page has loaded and no more resources arrive (lazy posters near the screen)."""
    count, since = -1, time.monotonic()

    def quiet():
        # Loaded, and no resource for half a second: the quiet time is what "no more" means here.
        nonlocal count, since
        ready = driver.execute_script("return document.readyState") == "complete"
        now = driver.execute_script("return performance.getEntriesByType('resource').length")
        if not ready or now != count:
            count, since = now, time.monotonic()
            return False
        return time.monotonic() - since >= 0.5

    try:
        wait_until(quiet, 10)
    except AssertionError:
        pass  # measured as it stands, as before


def warm(url):
    """Renders the page once, as the visitors before this one did: a new visitor gets the cached
    page, compressed once (in the moments before that, a page is compressed per response, at a
    fast level). Asks as Chromium does, brotli first: that form is made last, and slowly."""
    sizes = []

    def compressed_for_good():
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        with urllib.request.urlopen(request) as response:
            sizes.append(len(response.read()))
        return len(sizes) >= 3 and sizes[-1] == sizes[-2] == sizes[-3] and sizes[-1] < sizes[0]

    try:
        wait_until(compressed_for_good, 10)
    except AssertionError:
        pass  # measured as it stands, as before


def visit(driver, url):
    driver.get(url)
    settle(driver)
    transfers = driver.execute_script(TRANSFERS)
    total = transfers["page"] + sum(r["transfer"] for r in transfers["resources"])
    return total, transfers


@pytest.mark.parametrize("layout", ["list", "grid"])
def test_first_and_second_visit_transfer_little(server, cold_driver, layout):
    url = f"{server.url}/?layout={layout}"
    warm(url)
    first, transfers = visit(cold_driver, url)
    fetched = [r for r in transfers["resources"] if r["transfer"] > 0]
    assert any(r["url"].endswith(".css") for r in fetched), f"the stylesheet was not fetched: {transfers}"
    assert first <= FIRST_VISIT_LIMIT, (
        f"first visit of {layout}: {first} bytes over {1 + len(fetched)} requests "
        f"(page {transfers['page']}): {sorted((r['transfer'], r['url']) for r in fetched)}")
    print(f"\n{layout}: first visit {first} bytes in {1 + len(fetched)} requests", end="")
    shift = cold_driver.execute_async_script(LAYOUT_SHIFT)
    assert shift["shift"] == 0, f"{layout}: cumulative layout shift {shift['shift']}, moved: {shift['moved']}"

    second, transfers = visit(cold_driver, url)
    asked = [r for r in transfers["resources"]
             if r["transfer"] > 0 and r["type"] in ("link", "script", "img", "css")]
    assert not asked, f"second visit of {layout} asked the server again for {asked}"
    print(f", second visit {second} bytes")
    assert second <= SECOND_VISIT_LIMIT, f"second visit of {layout}: {second} bytes: {transfers}"
    shift = cold_driver.execute_async_script(LAYOUT_SHIFT)
    assert shift["shift"] == 0, (
        f"{layout}, second visit: cumulative layout shift {shift['shift']}, moved: {shift['moved']}")


def test_pages_and_assets_arrive_compressed(server, cold_driver):
    """Chromium asks for gzip (and brotli) and gets it: the page's bytes on the wire are a fraction of it."""
    cold_driver.get(f"{server.url}/?layout=list")
    settle(cold_driver)
    sizes = cold_driver.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "return [n.encodedBodySize, n.decodedBodySize];")
    assert sizes[0] * 3 < sizes[1], f"page encoded {sizes[0]} bytes for {sizes[1]} decoded"
    stylesheet = cold_driver.execute_script(
        "return performance.getEntriesByType('resource').filter(r => r.name.endsWith('.css'))"
        ".map(r => [r.encodedBodySize, r.decodedBodySize])[0];")
    assert stylesheet[0] * 3 < stylesheet[1], f"stylesheet encoded {stylesheet[0]} for {stylesheet[1]}"
