"""The HTML report in a real headless Chromium: tables, sorting, hostile names, a screenshot.

Uses the system Chromium (Debian package ``chromium``) through Playwright; no browser is
ever downloaded.  Skipped only when /usr/bin/chromium is absent.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from reports.report import write_report

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("headless Chromium is not installed at /usr/bin/chromium "
                    "(apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def _small():
    """test_report.small(): loaded by path (tests are not a package, import mode importlib)."""
    spec = importlib.util.spec_from_file_location("_report_tests",
                                                  Path(__file__).with_name("test_report.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.small()


@pytest.fixture
def report_dir(tmp_path):
    out = tmp_path / "report"
    write_report(_small(), out)
    return out


def _open(browser, path: Path):
    page = browser.new_page()
    dialogs: list[str] = []
    requests: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    return page, dialogs, requests


def _column(page, table: str, col: int) -> list[str]:
    return page.eval_on_selector_all(
        f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{col}].textContent.trim())")


def test_index_table_sorting_and_hostile_names(browser, report_dir, tmp_path):
    page, dialogs, requests = _open(browser, report_dir / "index.html")
    assert page.title() == "Test <Open> & Co"
    names = _column(page, "players", 1)
    assert names == ["IM Alpha, Anna", "<img src=x onerror=alert(1)>",
                     "<script>alert(1)</script>", '=HYPERLINK("http://x")', "Newcomer, Nia",
                     "Default, Dan"]
    assert _column(page, "players", 9) == ["-1.70", "-5.00", "+29.20", "-2.20", "", "-4.00"]
    # The hostile names are text: no image element, no injected script ran, no dialog.
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 1  # the sorting script only
    assert dialogs == []

    change = page.locator("#players thead th").nth(9)
    change.click()
    assert change.get_attribute("aria-sort") == "ascending"
    assert _column(page, "players", 9) == ["-5.00", "-4.00", "-2.20", "-1.70", "+29.20", ""]
    change.click()
    assert change.get_attribute("aria-sort") == "descending"
    assert _column(page, "players", 9)[:2] == ["+29.20", "-1.70"]
    page.locator("#players thead th").nth(1).click()
    assert _column(page, "players", 1)[0] == "<img src=x onerror=alert(1)>"
    page.locator("#players thead th").nth(3).click()  # rating, unrated last
    assert _column(page, "players", 3) == ["1850", "1990", "2000", "2210", "2405", ""]

    shot = tmp_path / "index.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 1000
    assert all(u.startswith("file://") for u in requests)
    page.close()


def test_player_page_round_table_chart_and_scenarios(browser, report_dir, tmp_path):
    page, dialogs, requests = _open(browser, report_dir / "player-1.html")
    assert page.locator("h1").text_content() == "IM Alpha, Anna"
    rounds = page.eval_on_selector_all(
        "#rounds tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent.trim()))")
    assert [r[0] for r in rounds] == ["1", "2", "3", "4"]
    assert rounds[0][3] == "<img src=x onerror=alert(1)>"
    assert rounds[0][8:10] == ["+2.50", "+2.50"]
    assert rounds[1][4] == "1990*" and rounds[1][8:10] == ["-4.20", "-1.70"]
    assert rounds[2][-1] == "not rated: forfeit"
    assert rounds[3][-1] == "not rated: pending"
    assert page.locator("svg polyline").count() == 1
    assert page.locator("svg circle").count() == 3  # the pending round 4 is not plotted
    box = page.locator(".scenario").text_content()
    assert "+0.80" in box and "-4.20" in box and "-9.20" in box
    assert page.locator("img").count() == 0 and dialogs == []
    page.screenshot(path=str(tmp_path / "player-1.png"), full_page=True)
    assert all(u.startswith("file://") for u in requests)
    page.close()
    hostile, dialogs, _ = _open(browser, report_dir / "player-3.html")
    assert hostile.locator("h1").text_content() == "<script>alert(1)</script>"
    assert hostile.locator("script").count() == 0 and dialogs == []
    hostile.close()
