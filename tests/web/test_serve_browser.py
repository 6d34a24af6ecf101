"""``fiderate serve`` in a real headless Chromium, at 1280 and 390 px: paste a tournament
number, drop a TRF, open a player, download the zip, use the calculator; and save a rating
period to the register with the write token (the browser's own Origin and Sec-Fetch-Site
let its posts through).

Uses the system Chromium through Playwright (never a downloaded browser); skipped only when
/usr/bin/chromium is absent.  Any console error (a blocked script or style is one) fails.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from loopback import ChessResults
from serving import LIVE_TNR, ROOT, TNR, Served, Trap, serve_fixtures
from test_browser import reads, serious
from test_report import small
from test_serve_period import post_period

from importer.formats.trf.writer import write_trf
from rating.period.register import Register

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a real browser

TRF = ROOT / "fixtures" / "sample_open.trf"
WIDTHS = (1280, 390)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Trap() as trap, ChessResults() as site:
        serve_fixtures(site)
        with Served(tmp_path_factory.mktemp("browser"), base_url=site.url) as s:
            yield s
        assert trap.connections == 0


@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def page(request, browser, server):
    context = browser.new_context(viewport={"width": request.param, "height": 900},
                                  accept_downloads=True)
    tab = context.new_page()
    tab.errors, tab.dialogs, tab.hosts = [], [], set()
    tab.on("console", lambda m: m.type == "error" and tab.errors.append(m.text))
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
    tab.on("request", lambda r: tab.hosts.add(r.url.split("/")[2]))
    tab.width = request.param
    yield tab
    assert tab.errors == [] and tab.dialogs == []
    assert tab.hosts <= {server.url.split("/")[2]}  # nothing loaded from anywhere else
    context.close()


def fits(tab, selector: str = "body") -> bool:
    """No element of *selector* reaches past the window's width."""
    return tab.eval_on_selector(selector, "e => e.getBoundingClientRect().right") <= tab.width


def column(tab, col: int) -> list[str]:
    return tab.eval_on_selector_all(
        "#players tbody tr", f"rows => rows.map(r => r.cells[{col}].textContent.trim())")


def test_paste_a_tournament_number(page, server):
    page.goto(server.url)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    page.fill("#source", TNR)
    page.click("button[type=submit]")
    assert page.url == f"{server.url}report/{TNR}/"
    assert page.locator("h1").text_content() == "Fiderate Published Open 2026"
    assert page.eval_on_selector("nav.site", "e => getComputedStyle(e).display") == "flex"
    assert page.eval_on_selector("body", "e => getComputedStyle(e).maxWidth") == "1152px"
    assert fits(page, "nav.site") and fits(page, ".site-downloads a:last-child")
    headers = page.eval_on_selector_all("#players thead th",
                                        "ths => ths.map(t => t.textContent.trim())")
    col = headers.index("Change")
    change = page.locator("#players thead th").nth(col)
    change.click()  # the report's sorting script runs under the server's policy
    assert change.get_attribute("aria-sort") == "ascending"
    keys = page.eval_on_selector_all(
        "#players tbody tr", f"rows => rows.map(r => r.cells[{col}].dataset.sort)")
    changes = [float(k) for k in keys if k]
    assert changes == sorted(changes) and changes[0] == -11.2
    page.click("text=Cole, Cara")
    assert page.url == f"{server.url}report/{TNR}/player-3.html"
    assert page.locator("h1").text_content() == "Cole, Cara"


def test_drop_a_trf_open_a_player_and_download_the_zip(page, server, tmp_path):
    page.goto(server.url)
    data = page.evaluate_handle(
        """text => { const dt = new DataTransfer();
                     dt.items.add(new File([text], "sample_open.trf", {type: "text/plain"}));
                     return dt; }""", TRF.read_text(encoding="utf-8"))
    page.dispatch_event("#drop", "drop", {"dataTransfer": data})
    assert page.locator("#chosen").text_content() == "sample_open.trf"
    page.click("button[type=submit]")
    assert page.locator("h1").text_content() == "Harbourside Autumn Open 2026"
    page.locator("#players tbody a").first.click()
    page.wait_for_selector("#rounds tbody tr")  # the new page loaded (count() does not wait)
    assert page.url.endswith("/player-1.html") and page.locator("#rounds tbody tr").count() > 0
    page.go_back()
    with page.expect_download() as caught:
        page.click("text=Whole report (zip)")
    saved = tmp_path / "report.zip"
    caught.value.save_as(saved)
    with zipfile.ZipFile(io.BytesIO(saved.read_bytes())) as zf:
        names = set(zf.namelist())
    assert {"report/index.html", "report/.fiderate", "report/rating_players.csv"} <= names
    assert len([n for n in names if n.startswith("report/player-")]) == 24
    page.screenshot(path=str(tmp_path / f"report-{page.width}.png"), full_page=True)


def test_the_calculator(page, server):
    page.goto(server.url + "calc")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    page.fill("#rating", "1500")
    page.fill("#opponent", "1600")
    page.select_option("#result", "draw")
    page.select_option("#category", "junior")
    page.fill("#date", "2026-08-01")
    page.click("button[type=submit]")
    page.wait_for_selector("#outcomes tbody tr")  # the answer loaded
    rows = page.eval_on_selector_all(
        "#outcomes tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))")
    assert rows == [["Win", "+25.60", "1526"], ["Draw", "+5.60", "1506"],
                    ["Loss", "-14.40", "1486"]]
    sides = page.eval_on_selector_all(
        "#sides tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))")
    assert sides[-2:] == [["Change", "+5.60", "-2.80"], ["New rating", "1506", "1597"]]
    ids = page.eval_on_selector_all("[id]", "es => es.map(e => e.id)")
    assert len(ids) == len(set(ids)), ids
    assert page.get_by_label("Result", exact=True).input_value() == "draw"  # named after a result
    assert fits(page, "#sides") and fits(page, "#outcomes")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    page.fill("#games", "1900 1\n2010 ½\nunrated 1\n1700 l")
    page.click("button[type=submit]")
    page.wait_for_selector("#game-list tbody tr")
    assert page.locator("#game-list tbody tr").count() == 4 and fits(page, "#game-list")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width


def test_hostile_names_stay_text(page, server, tmp_path):
    hostile = tmp_path / "<img src=x onerror=alert(1)>.trf"
    hostile.write_text(write_trf(small()), encoding="utf-8")
    page.goto(server.url)
    page.set_input_files("#files", str(hostile))
    assert page.locator("#chosen").text_content() == hostile.name
    page.click("button[type=submit]")
    assert page.locator("h1").text_content() == "Test <Open> & Co"
    assert page.locator("img").count() == 0
    assert "<script>alert(1)</script>" in column(page, 2)


def test_the_period_pages_under_the_servers_policy(page, server):
    """The period page and a player's calculation, served: the sorting script and the pages'
    styles pass the policy (a blocked one is a console error), nothing scrolls sideways."""
    index = post_period(server)
    assert index.status_code == 200
    page.goto(index.url)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    # the period pages' own style element applies: the players table's numbers align right,
    # or on a phone each row is stacked, its figures labelled
    style = page.eval_on_selector("#players tbody td:nth-child(4)", """e => [
        getComputedStyle(e).textAlign, getComputedStyle(e, "::before").content]""")
    assert style == (["right", "none"] if page.width > 390 else ["left", '"Old rating "'])
    page.click("#players thead th:nth-child(9) button")  # New rating, ascending
    assert page.get_attribute("#players thead th:nth-child(9)", "aria-sort") == "ascending"
    page.click("text=Arkell, Magnus")
    assert page.url == f"{index.url}period-players/99200001-standard.html"
    assert page.locator("h1").text_content() == "Arkell, Magnus"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert fits(page, "nav.site") and fits(page, "#outcome")
    with page.expect_download() as got:
        page.click(".site-downloads a:first-child")
    assert got.value.suggested_filename == "period_players.csv"
    page.click("text=Fjord Elite Invitational")
    assert page.url == f"{index.url}elite_nov2025/player-1.html"
    page.go_back()
    page.click("text=← FIDE rating period 2025-12")
    assert page.url == f"{index.url}period.html"


def test_the_period_form_saves_the_month_only_with_the_write_token(browser, tmp_path):
    from test_serve_period import EVENTS, LIST, PERIOD

    token = "correct horse battery staple"
    store = tmp_path / "register.sqlite"
    with Served(tmp_path / "period", "--store", str(store),
                env={"FIDERATE_WRITE_TOKEN": token}) as server:
        context = browser.new_context(viewport={"width": 390, "height": 900})
        tab = context.new_page()
        errors: list[str] = []
        tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
        tab.on("pageerror", lambda e: errors.append(str(e)))
        posted: list[dict[str, str]] = []
        tab.on("request", lambda r: r.method == "POST" and posted.append(r.all_headers()))

        def send(typed: str) -> str:
            tab.goto(server.url + "period")
            tab.fill("#period", "2025-12")
            tab.set_input_files("#tournaments", [str(PERIOD / e) for e in EVENTS])
            tab.set_input_files("#ratings_list", str(PERIOD / LIST))
            tab.fill("#token", typed)
            tab.click("button[type=submit]")
            assert tab.locator("h1").text_content() == "FIDE rating period 2025-12"
            return tab.locator(".site-status").text_content()

        assert send("correct horse") == ("Not saved to the rating register: the write token "
                                         "was wrong.")
        assert not store.exists()
        assert send(token) == "Saved to this server's rating register."
        assert errors == []
        own = server.url.rstrip("/")
        assert [(h.get("origin"), h.get("sec-fetch-site")) for h in posted] == [
            (own, "same-origin")] * 2  # what the server compares
        context.close()
    with Register(store) as reg:
        assert f"{reg.newest_period():%Y-%m}" == "2025-12"


# --- your row first, and a live page that stays put (issue 21) ---

BRITISH_TNR = "1452107"


@pytest.fixture(scope="module")
def british_server(realdata, tmp_path_factory):
    """A server whose chess-results double serves the British Championship with round 9 in
    progress: starting rank, crosstable and round 9's pairings (real pages)."""
    cr = realdata / "chess-results"
    with Trap() as trap, ChessResults() as site:
        site.page_file(BRITISH_TNR, art=0, path=cr / "en_swiss_startingrank_art0_british2026.html")
        site.page_file(BRITISH_TNR, art=5,
                       path=cr / "en_swiss_crosstable_art5_final_british2026.html")
        site.page_file(BRITISH_TNR, art=2, path=cr / "british2026_champ_r9.html")
        with Served(tmp_path_factory.mktemp("british"), base_url=site.url) as s:
            yield s
        assert trap.connections == 0


def test_on_a_phone_the_players_table_comes_first(browser, british_server):
    """At 390 × 844 the served report's first player row is on the first screen; the downloads
    and how long the report is kept come after the table."""
    tab = browser.new_page(viewport={"width": 390, "height": 844})
    tab.goto(f"{british_server.url}report/{BRITISH_TNR}/")
    first = tab.locator("#players tbody tr").first.bounding_box()
    assert first is not None and first["y"] + first["height"] <= 844, first
    tab.screenshot(path="/tmp/phone.png")
    table = tab.locator("#players").bounding_box()
    downloads = tab.locator(".site-downloads").bounding_box()
    assert table is not None and downloads is not None and downloads["y"] > table["y"]
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_player_search_finds_michael_adams(browser, british_server):
    """The report form's player field takes a name in any word order; a name that fits no
    one lands on the index, searched, with the closest names as links."""
    tab = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.goto(british_server.url)
    tab.fill("#source", BRITISH_TNR)
    tab.fill("#player", "Michael Adams")
    tab.click("button[type=submit]")
    assert tab.url.endswith("/player-2.html") and "Adams, Michael" in tab.locator("h1").text_content()
    tab.goto(british_server.url)
    tab.fill("#source", BRITISH_TNR)
    tab.fill("#player", "Micheal Adms")
    tab.click("button[type=submit]")
    assert f"/report/{BRITISH_TNR}/?q=Micheal+Adms" in tab.url
    assert tab.locator("#players tbody tr").count() == 0
    tab.click(".close a:has-text('Adams, Michael')")
    assert tab.url.endswith("/player-2.html")
    # the index's find-me box: the server's search, the row within the first screen
    tab.goto(f"{british_server.url}report/{BRITISH_TNR}/?q=michael+adams")
    rows = tab.locator("#players tbody tr")
    assert rows.count() == 1 and "Adams, Michael" in rows.first.text_content()
    assert rows.first.bounding_box()["y"] + rows.first.bounding_box()["height"] <= 844
    assert tab.input_value("#find") == "michael adams"
    assert errors == []
    tab.close()


def test_a_live_page_refreshes_in_place(page, server):
    """No reload: the refresh button fetches the page and puts the new numbers in, the
    scroll position, the sort and the find-me box kept; the stakes are in sight."""
    page.set_viewport_size({"width": page.width, "height": 360})
    page.goto(f"{server.url}report/{LIVE_TNR}/")
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    win = page.locator("#players tbody tr .c-win").first
    assert win.is_visible() and win.bounding_box()["x"] + win.bounding_box()["width"] <= page.width
    assert "→" in win.text_content()  # the new rating in sight, not in a tooltip
    heads = page.locator("#players thead th")
    rating = heads.nth(3)
    rating.click()
    rating.click()  # descending
    before = column(page, 3)
    page.evaluate("""() => { const r = document.querySelector("#players tbody tr:nth-child(2)");
                             window.scrollTo(0, scrollY + r.getBoundingClientRect().top - 60); }""")
    assert page.evaluate("window.scrollY") > 0  # the refresh button is out of sight
    here = """() => { const r = document.querySelector("#players tbody tr:nth-child(2)");
                      return [r.dataset.find, r.getBoundingClientRect().top]; }"""
    top = page.evaluate(here)
    page.evaluate("document.getElementById('refresh').click()")
    page.locator("#refreshed:has-text('Refreshed')").wait_for()
    # the same row at the same place on the screen, sorted as it was
    assert page.evaluate(here) == [top[0], pytest.approx(top[1], abs=1)]
    assert rating.get_attribute("aria-sort") == "descending" and column(page, 3) == before


# --- every served page kind (issue 21) ---

def test_every_served_page_kind(page, server):
    """The home form, a report's index and player page, the calculator with a result and
    with an error, the period form and a period's pages: nothing to scroll sideways, a skip
    link first, header, main and footer, the state line, and axe-core finds nothing serious
    (the calculator's result: below)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    period = post_period(server).url.removeprefix(server.url)
    kinds = {"": "Unofficial figures", f"report/{TNR}/": "Final", f"report/{TNR}/player-3.html":
             "Final", CALC: "Rating calculator · FIDE's rules of 2026-08-01, standard list",
             "calc?rating=x": "Rating calculator", "period": "Unofficial figures",
             period: "Rating period 2025-12: 4 tournaments",
             period + "period-players/99200001-standard.html":
             "Rating period 2025-12: 4 tournaments"}
    for path, stage in kinds.items():
        page.goto(server.url + path)
        seen = reads(page, page.width)
        where = f"/{path} at {page.width} px"
        assert seen["scroll"] <= page.width, where
        assert seen["landmarks"] == ["body > header", "main#main", "body > footer"], where
        assert page.locator("header nav.site").count() == 1, where
        assert seen["state"].startswith(stage), (where, seen["state"])
        assert seen["skip"] == ["skip", "#main", True, True], where
        if path != CALC:
            assert serious(axe, page) == [], where
        if path == "calc?rating=x":  # the refusal, in its line on the form
            assert page.locator(".site-error").is_visible()
            page.errors[:] = [e for e in page.errors if "status of 400" not in e]
    page.emulate_media(color_scheme="dark")  # the forms and the server's own lines, dark
    for path in ("", "calc?rating=x", f"report/{TNR}/"):
        page.goto(server.url + path)
        assert page.eval_on_selector("body", "b => getComputedStyle(b).backgroundColor") == (
            "rgb(20, 24, 30)")
        assert serious(axe, page, runOnly=["color-contrast"]) == [], f"/{path}, dark"
    page.errors[:] = [e for e in page.errors if "status of 400" not in e]


CALC = "calc?rating=1500&opponent=1600&result=draw&category=junior&date=2026-08-01"


def test_the_calculators_result_fits_the_screen(page, server):
    """The whole result on screen (Change and New rating too), and so nothing for axe-core
    to call a scrolling region without a keyboard way in."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page.goto(server.url + CALC)
    right = page.eval_on_selector_all("#players th, #players td",
                                      "cs => Math.max(...cs.map(c => c.getBoundingClientRect().right))")
    assert right <= page.width
    assert serious(axe, page) == []


# --- what do I need? (issue 32) ---


def test_on_a_phone_what_do_i_need_fits_without_sideways_scroll(browser, british_server):
    """At 390 px the served player page shows "What do I need?" (a live round, the user's
    target given in the report's key) and nothing reaches past the screen's width."""
    tab = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto(f"{british_server.url}report/{BRITISH_TNR}-t2600/player-2.html")
    needs = tab.locator("#needs")
    assert needs.is_visible()
    text = needs.text_content()
    assert "What do I need?" in text and "2600 (your target)" in text
    assert "Still to play: round 9" in text
    box = needs.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    needs.scroll_into_view_if_needed()
    tab.screenshot(path="/tmp/needs-phone.png", full_page=False)
    assert errors == []
    tab.close()
