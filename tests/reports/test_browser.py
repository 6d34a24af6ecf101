"""The HTML report in a real headless Chromium: tables, sorting, hostile names, and the pages on
a phone (390 px) and a desktop (1280 px): no sideways scrolling, the named columns on screen,
chart text legible, a visible focus ring, the live banner, the workings.

Uses the system Chromium (Debian package ``chromium``) through Playwright; no browser is
ever downloaded.  Skipped only when /usr/bin/chromium is absent.  One browser for the
module, one page per viewport width, reused from test to test.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from test_report import small  # the tests folder is on the path (pyproject)

from importer.model import RatingList, Tournament
from reports.report import write_report

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a real browser

PHONE, DESKTOP = 390, 1280
CR = "chess-results"
BRITISH_LIVE = ("british2026_champ_crosstable.html",
                "en_swiss_pairings_art2_rd8_forfeit_british2026.html",
                "british2026_champ_r9.html")
"""The British Championship after round 7, round 8's results and round 9 in progress."""
CARD = "ru_player_details_art9_2020.html"


class Seen:
    """What a reused page reported since the last :meth:`clear`: dialogs, requests, errors."""

    def __init__(self, page) -> None:
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def clear(self) -> None:
        self.dialogs.clear()
        self.requests.clear()
        self.errors.clear()


@pytest.fixture(scope="module")
def pages(browser):
    """One page per viewport width, reused: {390: page, 1280: page}; each page's
    :class:`Seen` is its ``seen`` attribute."""
    opened = {}
    for width in (PHONE, DESKTOP):
        page = browser.new_page(viewport={"width": width, "height": 844})
        page.seen = Seen(page)
        opened[width] = page
    yield opened
    for page in opened.values():
        page.close()


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("small") / "report"
    write_report(small(), out)
    return out


def reported(tmp_path_factory, name: str, *sources, **options) -> Path:
    """The report folder of *sources* (one event), written once for the module."""
    import importer

    out = tmp_path_factory.mktemp(name) / "report"
    write_report(importer.load_many([str(s) for s in sources]), out, **options)
    return out


@pytest.fixture(scope="module")
def british(realdata, tmp_path_factory):
    return reported(tmp_path_factory, "british", *(realdata / CR / n for n in BRITISH_LIVE))


@pytest.fixture(scope="module")
def pennine(fixtures_dir, tmp_path_factory):
    """The invented round robin where No. 1 makes an IM norm: a certificate page."""
    return reported(tmp_path_factory, "pennine", fixtures_dir / "norms" / "pennine_im_norm.trf")


@pytest.fixture(scope="module")
def sample(fixtures_dir, tmp_path_factory):
    return reported(tmp_path_factory, "sample", fixtures_dir / "sample_open.trf")


@pytest.fixture(scope="module")
def card(realdata, tmp_path_factory):
    return reported(tmp_path_factory, "card", realdata / CR / CARD, on=date(2020, 1, 5))


def _open(pages, path: Path, width: int = DESKTOP):
    page = pages[width]
    page.seen.clear()
    page.goto(path.as_uri())
    return page, page.seen


def _column(page, table: str, col: int) -> list[str]:
    return page.eval_on_selector_all(
        f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{col}].textContent.trim())")


def _index_of(page, table: str, header: str) -> int:
    heads = page.eval_on_selector_all(f"#{table} thead th",
                                      "ths => ths.map(th => th.textContent.trim())")
    return heads.index(header)


def test_index_table_sorting_and_hostile_names(pages, report_dir):
    page, seen = _open(pages, report_dir / "index.html")
    assert page.title() == "Test <Open> & Co"
    names = _column(page, "players", 2)
    assert names == ["IM Alpha, Anna", "<img src=x onerror=alert(1)>",
                     "<script>alert(1)</script>", '=HYPERLINK("http://x")', "Newcomer, Nia",
                     "Default, Dan"]
    col = _index_of(page, "players", "Change")
    assert _column(page, "players", col) == ["-1.70 → -2", "-5.00 → -5", "+29.20 → +29",
                                             "-2.20 → -2", "", "-4.00 → -4"]
    # The hostile names are text: no image element, no injected script ran, no dialog.
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 1  # the sorting script only
    assert seen.dialogs == [] and seen.errors == []  # a script the policy refused is an error

    change = page.locator("#players thead th").nth(col)
    change.click()
    assert change.get_attribute("aria-sort") == "ascending"
    assert _column(page, "players", col) == ["-5.00 → -5", "-4.00 → -4", "-2.20 → -2",
                                             "-1.70 → -2", "+29.20 → +29", ""]
    change.click()
    assert change.get_attribute("aria-sort") == "descending"
    assert _column(page, "players", col)[:2] == ["+29.20 → +29", "-1.70 → -2"]
    page.locator("#players thead th").nth(2).click()
    assert _column(page, "players", 2)[0] == "<img src=x onerror=alert(1)>"
    rating = _index_of(page, "players", "Rating")
    page.locator("#players thead th").nth(rating).click()  # rating, unrated last
    assert _column(page, "players", rating) == ["1850", "1990", "2000", "2210", "2405", ""]
    assert all(u.startswith("file://") for u in seen.requests)


def test_player_page_round_table_chart_and_scenarios(pages, report_dir):
    page, seen = _open(pages, report_dir / "player-1.html")
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
    # the resulting ratings: 2405 + round(-1.70 + 0.80) = 2404, -1.70 - 9.20 → 2394
    assert [c.strip() for c in page.locator(".scenario tbody td:last-child").all_text_contents()
            ] == ["2404", "2399", "2394"]
    assert page.locator("#workings").text_content().startswith("-1.70 → -2 → 2403")
    assert page.locator("img").count() == 0 and seen.dialogs == []
    assert all(u.startswith("file://") for u in seen.requests)
    hostile, seen = _open(pages, report_dir / "player-3.html")
    assert hostile.locator("h1").text_content() == "<script>alert(1)</script>"
    assert hostile.locator("script").count() == 1 and seen.dialogs == []  # the page's own
    # 3 plays the unrated 5 next: a box with the reason, no win/draw/loss
    box = hostile.locator(".scenario").text_content()
    assert "opponent unrated" in box and "Win" not in box


# --- phone and desktop ---

def _layout(page) -> dict:
    """What a reader sees: sideways scroll, the chart's smallest text on screen, the banner."""
    return page.evaluate("""() => {
        const svg = document.querySelector("svg.chart");
        let chart = null;
        if (svg) {
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            chart = Math.min(...Array.from(svg.querySelectorAll("text"),
                t => parseFloat(getComputedStyle(t).fontSize) * scale));
        }
        const live = document.querySelector(".live");
        return {scroll: document.documentElement.scrollWidth, width: innerWidth, chart: chart,
                live: live ? live.textContent : null};
    }""")


def _site_pages(british, sample, card):
    return [british / "index.html", british / "player-1.html", british / "player-19.html",
            sample / "index.html", sample / "player-3.html", sample / "player-24.html",
            card / "index.html", card / "player-8.html"]


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_pages_fit_the_screen(pages, british, sample, card, width):
    page = pages[width]
    for path in _site_pages(british, sample, card):
        page.goto(path.as_uri())
        seen = _layout(page)
        where = f"{path.parent.parent.name}/{path.name} at {width} px"
        assert seen["scroll"] <= seen["width"], f"{where} scrolls sideways"
        if seen["chart"] is not None:
            assert seen["chart"] >= 10, f"{where}: chart text {seen['chart']:.1f} px"
        if path.is_relative_to(british):
            assert seen["live"] is not None and "Provisional — round 9 in progress" in seen["live"]
        else:
            assert seen["live"] is None, where
    page.goto((british / "player-1.html").as_uri())
    assert _layout(page)["chart"] is not None  # the chart was there to measure


def test_index_keeps_name_change_and_new_on_a_phone(pages, british, sample, tmp_path):
    page = pages[PHONE]
    for path in (british / "index.html", sample / "index.html"):
        page.goto(path.as_uri())
        heads = page.eval_on_selector_all("#players thead th", """ths => ths.map(th => {
            const r = th.getBoundingClientRect();
            return [th.textContent.trim(), r.left, r.right]; })""")
        shown = {name: (left, right) for name, left, right in heads}
        for name in ("Name", "Change", "New"):
            left, right = shown[name]
            assert left >= 0 and right <= PHONE, f"{path}: {name} at {left:.0f}–{right:.0f}"
        # the cells too: the first row's change and new rating are on screen
        cells = page.eval_on_selector(
            "#players tbody tr", "r => Array.from(r.cells, c => c.getBoundingClientRect().right)")
        assert cells[_index_of(page, "players", "New")] <= PHONE
        # nothing to scroll sideways: the other columns are one tap away (below)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
    page.goto((british / "index.html").as_uri())
    page.screenshot(path=str(tmp_path / "british-index-390.png"))


def test_focus_ring_on_a_sort_button(pages, british):
    page = pages[DESKTOP]
    page.goto((british / "index.html").as_uri())
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('th') !== null"):
            break
    ring = page.evaluate("""() => {
        const b = document.activeElement, s = getComputedStyle(b);
        return {tag: b.tagName, outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
                shadow: s.boxShadow};
    }""")
    assert ring["tag"] == "BUTTON"
    assert (ring["outline"] != "none" and ring["width"] >= 2) or ring["shadow"] != "none"


def test_live_index_shows_each_players_stake(pages, british):
    page = pages[DESKTOP]
    page.goto((british / "index.html").as_uri())
    win, draw, loss = (_index_of(page, "players", h) for h in ("Win", "Draw", "Loss"))
    first = page.eval_on_selector("#players tbody tr",
                                  "r => Array.from(r.cells, c => c.textContent.trim())")
    assert (first[win], first[draw], first[loss]) == ("+2.90 → 2598", "-2.10 → 2593",
                                                      "-7.10 → 2588")
    assert page.eval_on_selector("#players tbody tr", f"r => r.cells[{win}].title") == (
        "a win: new rating 2598")


def test_player_page_shows_the_workings(pages, british, card, sample):
    page = pages[PHONE]
    page.goto((british / "player-1.html").as_uri())
    assert page.locator("#workings").text_content().startswith("-1.80 → -2 → 2595")
    box = page.locator(".scenario").text_content()
    assert "2598" in box and "2593" in box and "2588" in box  # the resulting ratings
    assert page.locator(".scenario td.pos").count() == 2  # coloured like the tables
    # a first rating under the rules of 2020: the opponents' average, 20 per half point above
    page.goto((card / "player-8.html").as_uri())
    first = page.locator("#first-rating").text_content()
    assert "8 games against rated opponents (5 needed)" in first
    assert "÷ 8 = 1163.38: the opponents' average" in first and "+140" in first
    # and under today's: two hypothetical 1800 draws in Ra and p
    page.goto((sample / "player-24.html").as_uri())
    first = page.locator("#first-rating").text_content()
    assert "(8969 + 2 × 1800) ÷ 7 = 1795.57" in first and "1745.57 → 1746" in first


def test_pages_work_without_javascript(browser, british):
    context = browser.new_context(java_script_enabled=False, viewport={"width": PHONE,
                                                                        "height": 844})
    page = context.new_page()
    page.goto((british / "index.html").as_uri())
    assert page.locator("#players tbody tr").count() == 108
    assert page.locator("#players thead button").count() == 0  # no dead sort buttons
    assert page.locator(".if-script").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
    context.close()


def test_no_option_text_in_any_page(british, sample, card, report_dir):
    for folder in (british, sample, card, report_dir):
        for path in folder.glob("*.html"):
            assert "--" not in path.read_text(encoding="utf-8"), path.name


# --- your row first, live stakes in sight, the state of the event (issue 21) ---

BRITISH_FINAL = ("en_swiss_startingrank_art0_british2026.html",
                 "en_swiss_crosstable_art5_final_british2026.html")
"""The British Championship, finished: starting rank and crosstable."""
PORTIMAO = "en_final_ranking_rtgchange_art1_portimao2024.html"
"""A final ranking with chess-results' published changes, and no games."""

_SURNAMES = ("Popescu", "Ionescu", "Bălan", "Dumitru", "Stan", "Munteanu", "Constantin",
             "Șerban", "Lungu", "Marin", "Tudor", "Dinu", "Ene", "Neagu", "Radu", "Toma",
             "Moldovan", "Cristea", "Barbu", "Nistor")
_GIVEN = ("Andrei", "Ștefan", "Mihai", "Ioana", "Elena", "Radu", "Bogdan", "Ana", "Vlad",
          "Irina", "Tudor")


def arad_sized() -> Tournament:
    """209 players over 9 rounds, as big as the Arad open: rated 2550 down to 1510, names
    with Romanian letters, a bye each round (209 is odd), every result in."""
    from decimal import Decimal

    from importer.model import Colour, Player, RoundResult, Status, TournamentInfo

    n = 209
    players = tuple(Player(start_no=i, name=f"{_SURNAMES[(i - 1) % 20]}, {_GIVEN[(i - 1) // 20]}",
                           federation="ROU", fide_id=str(1200000 + i), rating=2555 - 5 * i,
                           birth_year=1990) for i in range(1, n + 1))
    results = []
    for rnd in range(1, 10):
        order = list(range(1, n + 1))
        order = order[rnd:] + order[:rnd]
        for a, b in zip(order[0:n - 1:2], order[1:n - 1:2], strict=True):
            pa = Decimal("0.5") if (a + b + rnd) % 3 == 0 else Decimal(a < b)
            for me, opp, pts, colour in ((a, b, pa, Colour.WHITE), (b, a, 1 - pa, Colour.BLACK)):
                results.append(RoundResult(start_no=me, round=rnd, status=Status.PLAYED,
                                           opponent_no=opp, colour=colour, points=pts))
        results.append(RoundResult(start_no=order[-1], round=rnd, status=Status.BYE,
                                   points=Decimal(1)))
    info = TournamentInfo(name="Arad Open (generated)", start_date=date(2026, 7, 1),
                          end_date=date(2026, 7, 9), rounds=9, rating_list=RatingList.STANDARD)
    return Tournament(info=info, players=players, results=tuple(results))


@pytest.fixture(scope="module")
def british_final(realdata, tmp_path_factory):
    return reported(tmp_path_factory, "british_final", *(realdata / CR / n for n in BRITISH_FINAL))


@pytest.fixture(scope="module")
def arad(tmp_path_factory):
    """The generated 209-player event, written as a TRF and read back."""
    import importer
    from importer.formats.trf.writer import write_trf

    folder = tmp_path_factory.mktemp("arad")
    trf = folder / "arad.trf"
    trf.write_text(write_trf(arad_sized()), encoding="utf-8")
    write_report(importer.load(trf), folder / "report")
    return folder / "report"


@pytest.fixture(scope="module")
def portimao(realdata, tmp_path_factory):
    return reported(tmp_path_factory, "portimao", realdata / CR / PORTIMAO)


def _row_box(page, selector: str = "#players tbody tr:not([hidden])") -> dict:
    return page.eval_on_selector(selector, """r => { const b = r.getBoundingClientRect();
        return {top: b.top, bottom: b.bottom, left: b.left, right: b.right,
                text: r.textContent}; }""")


def test_your_row_within_one_phone_screen(pages, british, british_final, arad):
    """The first row is on the first phone screen; a name typed in the find-me box (any word
    order, no accents) leaves that row on it, and a start number finds its player."""
    page = pages[PHONE]
    for folder, typed, who in ((british_final, "Michael Adams", "Adams, Michael"),
                               (british, "stephanie brown", "Brown Stephanie"),
                               (arad, "stefan serban", "Șerban, Ștefan"),
                               (arad, "208", "Șerban, Tudor")):
        page.goto((folder / "index.html").as_uri())
        assert _row_box(page)["bottom"] <= 844, f"{folder.parent.name}: first row below"
        page.fill("#find", typed)
        shown = page.locator("#players tbody tr:not([hidden])")
        assert shown.count() >= 1
        row = _row_box(page)
        assert who in row["text"] and row["top"] >= 0 and row["bottom"] <= 844, (typed, row)
        assert "found" in page.locator("#find-count").text_content()
        page.fill("#find", "")
    assert page.locator("#players tbody tr:not([hidden])").count() == 209


def test_the_find_me_box_without_javascript(browser, arad):
    """Without a script the form is a GET to the same page: a static file shows every row."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": PHONE,
                                                                        "height": 844})
    page = context.new_page()
    page.goto((arad / "index.html").as_uri())
    page.fill("#find", "Bălan")
    page.click("form.find button")
    assert "q=B" in page.url and page.locator("#players tbody tr").count() == 209
    context.close()


def test_live_stakes_in_sight_on_a_phone(pages, british):
    """Win, Draw and Loss, each with the new rating it gives, on screen: no sideways
    scroll, nothing in a tooltip only; the header stays on top while the list scrolls."""
    page = pages[PHONE]
    page.goto((british / "index.html").as_uri())
    cells = page.eval_on_selector("#players tbody tr", """r => Array.from(
        r.querySelectorAll(".c-win, .c-draw, .c-loss"), c => { const b = c.getBoundingClientRect();
            return [c.textContent.trim(), b.left, b.right, b.bottom]; })""")
    assert [c[0] for c in cells] == ["+2.90 → 2598", "-2.10 → 2593", "-7.10 → 2588"]
    assert all(left >= 0 and right <= PHONE and bottom <= 844 for _, left, right, bottom in cells)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
    page.evaluate("window.scrollTo(0, 3000)")
    assert page.eval_on_selector("#players thead", "h => h.getBoundingClientRect().top") == (
        pytest.approx(0, abs=1))
    page.evaluate("window.scrollTo(0, 0)")


def test_all_columns_one_tap_away_on_a_phone(pages, british):
    page = pages[PHONE]
    page.goto((british / "index.html").as_uri())
    assert page.locator("#players thead th:has-text('Perf.')").is_hidden()
    page.click("text=All columns")
    assert page.locator("#players thead th:has-text('Perf.')").is_visible()
    box = page.locator("#players-table")  # the table scrolls in its box, the name pinned
    box.evaluate("b => { b.scrollLeft = 400; }")
    assert box.evaluate("b => b.scrollLeft") > 0
    left = page.eval_on_selector("#players tbody th.name", "c => c.getBoundingClientRect().left")
    assert left == pytest.approx(box.evaluate("b => b.getBoundingClientRect().left"), abs=1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
    page.click("text=Fewer columns")
    assert page.locator("#players thead th:has-text('Perf.')").is_hidden()


def test_published_figures_where_we_compute_none(pages, portimao):
    """Portimão's ranking page holds no games: each rated player's published change and rank
    are on the index, labelled, and no row reads '0.00 → 0'."""
    page = pages[PHONE]
    page.goto((portimao / "index.html").as_uri())
    assert "0.00 → 0" not in page.content()
    rows = page.eval_on_selector_all("#players tbody tr", """rows => rows.map(r => [
        r.querySelector(".c-rank").textContent.trim(), r.querySelector(".c-rtg").textContent.trim(),
        r.querySelector(".c-chg").textContent.trim(),
        r.querySelector(".c-chg").getBoundingClientRect().right])""")
    assert len(rows) == 99
    first = rows[0]
    assert first[:3] == ["9", "2629", "-17.30 published"]
    for rank, rating, chg, right in rows:
        if rating:
            assert rank and chg.endswith("published") and right <= PHONE, (rank, chg)
    page.goto((portimao / "player-1.html").as_uri())
    assert page.locator("#workings").text_content() == (
        "unknown: the source shows none of the player's games; published: -17.30")


def test_every_page_says_where_the_event_stands(pages, realdata, british, portimao, sample,
                                                 tmp_path):
    import importer

    after7 = tmp_path / "after7"
    write_report(importer.load(realdata / CR / "british2026_champ_crosstable.html"), after7)
    page = pages[PHONE]
    for folder, stage in ((british, "Provisional — round 9 in progress"),
                          (after7, "After round 7 of 9"),
                          (portimao, "Ranking after 9 rounds, as published"),
                          (sample, "Final")):
        for name in ("index.html", "player-1.html"):
            page.goto((folder / name).as_uri())
            line = page.locator("#state").text_content()
            assert line.startswith(stage) and "unofficial: FIDE rates the whole month" in line
            page.click("#state a")
            assert page.locator("#month").is_visible()
    page.goto((british / "index.html").as_uri())
    assert "as of 2026-08-09 12:22 (the source's last update)" in page.locator("#state").text_content()
    for folder in (british, after7, portimao, sample):
        for path in folder.glob("*.html"):
            assert 'http-equiv="refresh"' not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_no_serious_accessibility_problems(pages, british, arad, portimao, width):
    """axe-core finds nothing serious or critical on the index and player pages.  To keep it
    quick, an index is checked with the find-me box holding a name: its rows are all alike,
    and the hidden ones would only make axe slower."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page = pages[width]
    for path, typed in ((british / "index.html", "adams"), (british / "player-2.html", ""),
                        (arad / "index.html", "popescu"), (portimao / "index.html", "silva"),
                        (portimao / "player-1.html", "")):
        page.goto(path.as_uri())
        if typed:
            page.fill("#find", typed)
        found = axe.run(page, options={"resultTypes": ["violations"]}).response["violations"]
        bad = [(v["id"], v["impact"], len(v["nodes"])) for v in found
               if v["impact"] in ("serious", "critical")]
        assert bad == [], f"{path.parent.parent.name}/{path.name} at {width} px: {bad}"


# --- every page kind: landmarks, the state line, print, dark, links (issue 21) ---

A4_WIDTH = 703
"""An A4 page's width inside the print stylesheet's 12 mm margins, in CSS pixels (96 dpi):
(210 − 2 × 12) mm ÷ 25.4 × 96."""


@pytest.fixture(scope="module")
def period(tmp_path_factory):
    """The README's December 2025 (fixtures/period), written as ``fiderate period`` does."""
    import importer
    from importer.formats.fidelist import read_fide_list
    from rating import PeriodSource, run_period
    from reports.period.pages import write_period_files

    month = Path(__file__).resolve().parents[2] / "fixtures" / "period"
    events = [PeriodSource(tournament=importer.load(path), source=path.name)
              for path in sorted(month.glob("*.trf"))]
    fide_list = read_fide_list(month / "players_list_foa_nov25.txt")
    result = run_period(events, period=date(2025, 12, 1), ratings_list=fide_list,
                        today=date(2025, 12, 5))
    folder = tmp_path_factory.mktemp("period")
    write_period_files(result, folder, ratings_list=fide_list)
    return folder


def serious(axe, page, **options) -> list:
    """axe-core's serious and critical violations on the page (rule, impact, elements)."""
    found = axe.run(page, options={"resultTypes": ["violations"], **options}
                    ).response["violations"]
    return [(v["id"], v["impact"], len(v["nodes"])) for v in found
            if v["impact"] in ("serious", "critical")]


def reads(page, width: int) -> dict:
    """What every page kind must have: no sideways scroll; a header, a main and a footer;
    the state line; and a skip link first in the tab order, shown when focused."""
    page.keyboard.press("Tab")
    return page.evaluate("""() => {
        const first = document.activeElement, box = first.getBoundingClientRect();
        const state = document.getElementById("state");
        return {scroll: document.documentElement.scrollWidth,
                landmarks: ["body > header", "main#main", "body > footer"].filter(
                    s => document.querySelectorAll(s).length === 1),
                state: state ? state.textContent : "",
                skip: [first.className, first.getAttribute("href"), box.top >= 0 && box.bottom > 0,
                       first.textContent.startsWith("Skip to")]};
    }""")


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_every_page_kind_reads_on_this_screen(pages, british, sample, period, width):
    """The report's index and player pages, the period page and a player's calculation:
    nothing to scroll sideways, landmarks, a skip link first, the state line; the period
    pages also pass axe-core (the report's pages are checked below)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page = pages[width]
    states = {british / "index.html": "Provisional — round 9 in progress",
              sample / "player-3.html": "Final: 7 rounds",
              period / "period.html": "Rating period 2025-12: 4 tournaments",
              period / "period-players" / "99200001-standard.html":
                  "Rating period 2025-12: 4 tournaments"}
    for path, stage in states.items():
        page.goto(path.as_uri())
        seen = reads(page, width)
        where = f"{path.name} at {width} px"
        assert seen["scroll"] <= width, where
        assert seen["landmarks"] == ["body > header", "main#main", "body > footer"], where
        assert seen["state"].startswith(stage) and "unofficial" in seen["state"], where
        assert seen["skip"] == ["skip", "#main", True, True], where
        assert page.locator("header nav").count() == 1, where
        if path.is_relative_to(period):
            assert serious(axe, page) == [], where
    # the calculation's every figure on screen: K × chg, the last column, too
    right = page.eval_on_selector_all("#calc tbody td:last-child",
                                      "cs => Math.max(...cs.map(c => c.getBoundingClientRect().right))")
    assert 0 < right <= width


def test_links_to_chess_results_and_fide(pages, british, sample, period):
    """The event's chess-results page, from the tournament number its pages give, and each
    player's FIDE profile by the FIDE id the source gives; none invented."""
    page = pages[DESKTOP]
    page.goto((british / "index.html").as_uri())
    event = page.locator("main .meta a")  # under the title, and again in the footer
    assert page.locator("footer a").get_attribute("href") == event.get_attribute("href")
    assert event.get_attribute("href") == "https://chess-results.com/tnr1452107.aspx?lan=1"
    assert event.get_attribute("rel") == "noopener"
    assert page.locator("a[href*='ratings.fide.com']").count() == 0  # no FIDE id in the pages
    page.goto((sample / "player-3.html").as_uri())  # Okafor, Emeka: FIDE id 99100255 (TRF)
    profile = page.locator("a:has-text('profile on ratings.fide.com')")
    assert profile.get_attribute("href") == "https://ratings.fide.com/profile/99100255"
    assert page.locator("a[href*='chess-results']").count() == 0  # a TRF file: no event page
    page.goto((period / "period-players" / "99200001-standard.html").as_uri())
    assert page.locator("a:has-text('profile on ratings.fide.com')").get_attribute("href") == (
        "https://ratings.fide.com/profile/99200001")


def test_share_metadata(pages, british):
    page = pages[DESKTOP]
    page.goto((british / "player-1.html").as_uri())
    meta = page.eval_on_selector_all("meta[property], meta[name^='twitter']", """ms =>
        Object.fromEntries(ms.map(m => [m.getAttribute("property") || m.name, m.content]))""")
    assert meta["og:title"] == page.title() and meta["og:type"] == "website"
    assert meta["twitter:card"] == "summary" and "og:url" not in meta  # no address invented
    assert meta["og:description"].startswith("Mcshane Luke J: change -1.80, new rating 2595.")
    assert "round 9 in progress" in meta["og:description"]


def test_the_printed_index_shows_every_column_on_a4(browser, british):
    """On A4 portrait every column of the live index is inside the page; the legend is open,
    the find-me box and the navigation are left out; and the page prints to a PDF."""
    page = browser.new_page(viewport={"width": A4_WIDTH, "height": 1000})
    page.goto((british / "index.html").as_uri())
    page.emulate_media(media="print")
    fit = page.evaluate("""() => {
        const t = document.getElementById("players");
        return {table: t.scrollWidth, page: document.documentElement.scrollWidth,
                out: Array.from(t.tHead.rows[0].cells, c => [c.textContent.trim(),
                    c.getBoundingClientRect().right]).filter(c => c[1] > innerWidth + 0.5),
                heads: t.tHead.rows[0].cells.length,
                legend: document.querySelector("#legend dl").getBoundingClientRect().height};
    }""")
    assert fit["out"] == [] and fit["table"] <= A4_WIDTH and fit["page"] <= A4_WIDTH, fit
    assert fit["heads"] == 16 and fit["legend"] > 0  # Rank … FED, Win/Draw/Loss among them
    for hidden in ("#find", "header nav", ".skip"):
        assert page.locator(hidden).is_hidden(), hidden
    page.evaluate("dispatchEvent(new Event('beforeprint'))")  # what a browser sends
    assert page.locator("#legend").get_attribute("open") is not None
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") >= 2
    page.close()


def test_dark_screens_keep_the_contrast(browser, british, period, pennine):
    """Dark colours when the screen asks for them, and axe-core finds no text below AA (the
    norms' marks and badges too)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page = browser.new_page(viewport={"width": DESKTOP, "height": 844}, color_scheme="dark")
    for path, typed in ((british / "index.html", "adams"), (british / "player-1.html", ""),
                        (pennine / "index.html", ""), (pennine / "player-1.html", ""),
                        (pennine / "player-2.html", ""), (pennine / "norm-1-im.html", ""),
                        (period / "period-players" / "99200001-standard.html", "")):
        page.goto(path.as_uri())
        if typed:
            page.fill("#find", typed)
        assert page.eval_on_selector("body", "b => getComputedStyle(b).backgroundColor") == (
            "rgb(20, 24, 30)")
        assert serious(axe, page, runOnly=["color-contrast"]) == [], path.name
    page.close()
