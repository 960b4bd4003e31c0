"""REDbot (an HTTP linter from PyPI) on the main pages and everything they link: no note of
severity warning or worse. Above all no page that carries a visitor's state (their cookie, CSRF
token or layout) or the report log may be stored by a shared cache in front of the server."""
import json
import subprocess

import pytest


def pages(catalog):
    """name -> path: the visitor's pages, the report pages, and an error page."""
    word = max(catalog.items[0]["title"].split(), key=len).strip(".,:'")
    return {
        "home-list": "/?layout=list",
        "home-grid": "/?layout=grid",
        "search-results": f"/search?q={word}",
        "text-input": "/search",
        "long": f"/long/{catalog.first('long')['id']}",
        "short": f"/short/{catalog.first('short')['id']}",
        "stream": f"/stream/{catalog.first('live')['id']}",
        "settings": "/settings",
        "onboarding-layout": "/onboarding/layout",
        "not-found-404": "/long/nope",
        "reports": "/reports",
        "reports-json": "/reports.json",
        "experiments": "/reports/experiments",
        "sign-in": "/reports/login",
    }


PAGE_NAMES = ["home-list", "home-grid", "search-results", "text-input", "long", "short", "stream", "settings",
              "onboarding-layout", "not-found-404", "reports", "reports-json", "experiments", "sign-in"]


def redbot(url):
    """REDbot's notes on `url` and the assets it links, as (url, level, summary)."""
    done = subprocess.run(["redbot", "-a", "-o", "har", url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    notes = []
    for entry in json.loads(done.stdout)["log"]["entries"]:
        for note in entry.get("_red_messages", []):
            notes.append((entry["request"]["url"], note.get("level"), note.get("summary")))
    return notes


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_no_warning_from_redbot(server, name):
    path = pages(server.catalog)[name]
    notes = redbot(server.url + path)
    assert notes, "REDbot said nothing at all"
    bad = [note for note in notes if note[1] in ("WARN", "BAD")]
    assert not bad, "\n".join(f"{url}: {level} {summary}" for url, level, summary in bad)


def test_visitor_pages_are_private_and_report_pages_kept_nowhere(server):
    """The rule itself, as REDbot reads it: private for the visitor's pages, no-store for the reports."""
    home = redbot(server.url + "/")
    assert any(level == "INFO" and "only private caches" in summary for url, level, summary in home
               if url == server.url + "/"), home
    reports = redbot(server.url + "/reports")
    assert any("can't be stored by caches" in summary for url, _, summary in reports
               if url == server.url + "/reports"), reports
