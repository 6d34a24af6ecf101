"""The report's pages read back as tables: each cell against a figure worked out apart from
the code (the results of test_report.small(), FIDE's table 8.1.2 from the oracle copy in
realdata, the 400-point cap and the K of each player's category), and against the CSV the
same report writes.

One page stays byte-exact, index.html of small() (tests/golden/report_small/): it guards
the markup the figures sit in, the escaping of hostile names in text and attributes, the
policy's script hash and the accessibility attributes (captions, scopes, labelled regions).
Regenerate it deliberately with ``FIDERATE_UPDATE_GOLDEN=1`` and read the diff.
"""

from __future__ import annotations

import csv
import io
import os
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import lxml.html
import pytest
from test_report import IMG, SCRIPT, small, tur_small  # the tests folder is on the path

from reports.report import build_report, render_report, write_report

GOLDEN_INDEX = Path(__file__).parents[1] / "golden" / "report_small" / "index.html"
UPDATE = os.environ.get("FIDERATE_UPDATE_GOLDEN") == "1"
CAP = 400  # standard play, below 2650: the difference counts up to 400 (spec §2.1)

# --- the figures by hand ---------------------------------------------------------------

RATING = {1: 2405, 2: 2210, 3: 1990, 4: 1850, 5: None, 6: 2000}
NAME = {1: "IM Alpha, Anna", 2: IMG, 3: SCRIPT, 4: '=HYPERLINK("http://x")', 5: "Newcomer, Nia",
        6: "Default, Dan"}
# K by category: 2405 ≥ 2400 → 10; 2210 and 1850 (adults) → 20; 1990 born 2011 (under 18,
# below 2300) → 40; no. 6 has no birth year: 20, assumed.
K = {1: 10, 2: 20, 3: 40, 4: 20, 6: 20}
# Each player's rounds as small() gives them: (opponent, result as shown, why not rated).
ROUNDS = {
    1: [(2, "1", None), (3, "½", None), (6, "+", "forfeit"), (4, "…", "pending")],
    2: [(1, "0", None), (5, "1", "opponent unrated"), (None, "1", "bye"), (6, "…", "pending")],
    3: [(4, "1", None), (1, "½", None), (5, "0", "less than one move"), (5, "…", "pending")],
    4: [(3, "0", None), (6, "½", None), (None, "½", "half-point bye"), (1, "…", "pending")],
    5: [(6, "1", "player unrated"), (2, "0", "player unrated"), (3, "1", "less than one move"),
        (3, "…", "pending")],
    6: [(5, "0", "opponent unrated"), (4, "½", None), (1, "−", "forfeit"), (2, "…", "pending")],
}
POINTS = {1: "2½", 2: "2", 3: "1½", 4: "1", 5: "2", 6: "½"}  # byes and forfeits included
# Performance: the rated opponents' average + dp(p) from table 8.1.1 (dp(.75) = 193,
# dp(.5) = 0, dp(.25) = −193, dp(0) = −800), rounded: 2100 + 193, 2405 − 800, 2127.5 + 193,
# 1995 − 193, 2105 + 0, 1850 + 0.
PERFORMANCE = {1: "2293", 2: "1605", 3: "2321", 4: "1802", 5: "2105", 6: "1850"}
FED = {1: "ENG", 2: "SCO"}
# UKD beside FIDE (tur_small): own UKD, its K band (spec ukd.md §3.5), the change: an opponent
# without a valid UKD (none, below 1000, above 3000) gives ±3 or 0 (E .5, K 6, §3.9); else
# K × (S − PD) with D capped at 350 (PD .89/.11).  1: +3 + 0; 3: 30 × (1 − .11) + 30 × (.5 −
# .11); 4: −3 + 0; 5: +3 − 3; 6: 10 × (0 − .89) + 10 × (.5 − .89).
UKD_K = {1: 25, 3: 30, 4: 20, 5: 25, 6: 10}  # bands: <1300 30, 1300–1599 25, 1600–1999 20, ≥2400 10
UKD = {1: ("1510", "+3.00", "1513"), 2: ("", "", ""), 3: ("900", "+38.40", "938"),
       4: ("1850", "-3.00", "1847"), 5: ("1400", "0.00", "1400"), 6: ("3100", "-12.80", "3087")}
PENDING = 4


@pytest.fixture(scope="module")
def pd_table(realdata) -> list[tuple[Decimal, Decimal, Decimal, Decimal]]:
    """FIDE's table 8.1.2 as the oracle file gives it: (D from, D to, PD higher, PD lower)."""
    with (realdata / "oracle" / "fide_table_8_1_2_pd.csv").open(encoding="utf-8") as f:
        return [tuple(Decimal(r[c]) for c in ("diff_from", "diff_to", "PD_higher", "PD_lower"))
                for r in csv.DictReader(f)]


def expected(table, own: int, opponent: int) -> Decimal:
    d = min(abs(own - opponent), CAP)
    (high, low), = [(h, lo) for a, b, h, lo in table if a <= d <= b]
    return high if own >= opponent else low


def score(shown: str) -> Decimal:
    return {"1": Decimal(1), "½": Decimal("0.5"), "0": Decimal(0)}[shown]


def signed(value: Decimal) -> str:
    return f"{value:+.2f}" if value else "0.00"


def rounded(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))  # half away from zero


def whole(value: Decimal) -> str:
    """The rounded change as the pages show it: '+29', '-2', '0'."""
    return f"{rounded(value):+d}" if rounded(value) else "0"


def rated_games(table, no: int) -> list[tuple[int, Decimal, Decimal]]:
    """(round, expected, change) of each of the player's rated games, by hand."""
    return [(rnd, e, K[no] * (score(res) - e))
            for rnd, (opp, res, why) in enumerate(ROUNDS[no], 1) if why is None
            for e in [expected(table, RATING[no], RATING[opp])]]


def change(table, no: int) -> Decimal:
    return sum((c for _, _, c in rated_games(table, no)), Decimal("0.00"))


# --- reading the pages -----------------------------------------------------------------

def text(cell) -> str:
    return " ".join(cell.text_content().split())


def read_table(page: str, table_id: str) -> tuple[list[str], list[list[str]]]:
    """A table's column headers and its body's rows, each cell as the reader sees it."""
    (table,) = lxml.html.fromstring(page).xpath(f'//table[@id="{table_id}"]')
    heads = [text(th) for th in table.xpath("thead/tr/th")]
    rows = [[text(c) for c in tr.xpath("th|td")] for tr in table.xpath("tbody/tr")]
    assert all(len(r) == len(heads) for r in rows)
    return heads, rows


def scenario_box(page: str) -> tuple[str, list[list[str]]]:
    (table,) = lxml.html.fromstring(page).xpath('//div[contains(@class, "scenario")]/table')
    return text(table.xpath("caption")[0]), [[text(c) for c in tr.xpath("th|td")]
                                            for tr in table.xpath(".//tr")]


def facts(page: str) -> dict[str, str]:
    """The terms and values of the page's fact lists (the player, a first rating's workings)."""
    return {text(dt): text(dt.getnext()) for dt in
            lxml.html.fromstring(page).xpath('//dl[@class="facts"]/dt')}


def csv_rows(files: dict[str, str], name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(files[name])))


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return render_report(build_report(small()))


# --- the tests ----------------------------------------------------------------------------

INDEX_HEADS = ["Rank", "No.", "Name", "Rating", "Change", "New", "Win", "Draw", "Loss", "K", "Pts.",
               "Games", "Score", "Expected", "Perf.", "FED"]


def test_players_table_has_the_hand_figures(files, pd_table):
    heads, rows = read_table(files["index.html"], "players")
    assert heads == INDEX_HEADS
    assert [r[1] for r in rows] == [str(n) for n in ROUNDS]
    for row in rows:
        cell = dict(zip(heads, row, strict=True))
        no = int(cell["No."])
        assert (cell["Name"], cell["Pts."], cell["Perf."], cell["FED"]) == (
            NAME[no], POINTS[no], PERFORMANCE[no], FED.get(no, "")), no
        games = rated_games(pd_table, no) if RATING[no] else []
        won = sum((score(ROUNDS[no][rnd - 1][1]) for rnd, _, _ in games), Decimal(0))
        assert cell["Games"] == str(len(games)), no
        # the place by points (no ranking published): equal points share it, "3="
        points = {n: Decimal(p.replace("½", ".5")) for n, p in POINTS.items()}
        above = sum(1 for p in points.values() if p > points[no])
        tied = sum(1 for p in points.values() if p == points[no]) > 1
        assert cell["Rank"] == f"{above + 1}{'=' if tied else ''}", no
        assert cell["Score"] == {Decimal(0): "0", Decimal("0.5"): "½", Decimal("1.5"): "1½"}[won]
        if RATING[no] is None:  # no. 5: no change; towards a first rating, 2 of 5 games
            assert (cell["Rating"], cell["Change"], cell["New"], cell["K"], cell["Expected"]) == (
                "", "", "2 of 5", "", "")
            continue
        total = change(pd_table, no)
        assert cell["Rating"] == str(RATING[no])
        assert cell["Change"] == f"{signed(total)} → {whole(total)}", no
        assert cell["New"] == str(RATING[no] + rounded(total)), no
        assert cell["K"] == f"{K[no]}{'*' if no == 6 else ''}", no
        assert cell["Expected"] == f"{sum(e for _, e, _ in games):.2f}", no


def test_players_table_win_draw_loss_are_the_pending_game(files, pd_table):
    heads, rows = read_table(files["index.html"], "players")
    for row in rows:
        cell = dict(zip(heads, row, strict=True))
        no = int(cell["No."])
        opp = ROUNDS[no][PENDING - 1][0]
        if RATING[no] is None:
            assert (cell["Win"], cell["Draw"], cell["Loss"]) == ("", "", "")
        elif RATING[opp] is None:
            assert (cell["Win"], cell["Draw"], cell["Loss"]) == ("not rated", "", "")
        else:
            e = expected(pd_table, RATING[no], RATING[opp])
            stakes = [K[no] * (s - e) for s in (1, Decimal("0.5"), 0)]
            # each stake, then the new rating it would give, in sight (no tooltip)
            assert [cell["Win"], cell["Draw"], cell["Loss"]] == [
                f"{signed(g)} → {RATING[no] + rounded(change(pd_table, no) + g)}"
                for g in stakes], no


def test_round_cards_have_the_hand_figures(files, pd_table):
    for no, rounds in ROUNDS.items():
        page = files[f"player-{no}.html"]
        heads, rows = read_table(page, "rounds")
        assert heads == ["Rd.", "Colour", "No.", "Opponent", "Rating", "Result", "Expected", "K",
                         "Change", "Cumulative", "Note"]
        assert len(rows) == len(rounds)
        figures = {rnd: (e, c) for rnd, e, c in rated_games(pd_table, no)} if RATING[no] else {}
        cumulative = Decimal("0.00")
        for rnd, (row, (opp, result, why)) in enumerate(zip(rows, rounds, strict=True), 1):
            cell = dict(zip(heads, row, strict=True))
            colour = "white" if (no + rnd) % 2 else "black"
            opp_rating = "" if opp is None or RATING[opp] is None else str(RATING[opp])
            capped = opp is not None and why is None and abs(RATING[no] - RATING[opp]) > CAP
            assert (cell["Rd."], cell["Colour"], cell["No."], cell["Opponent"], cell["Rating"],
                    cell["Result"]) == (str(rnd), colour, "" if opp is None else str(opp),
                                        "" if opp is None else NAME[opp],
                                        opp_rating + ("*" if capped else ""), result), (no, rnd)
            if rnd in figures:
                e, c = figures[rnd]
                cumulative += c
                assert (cell["Expected"], cell["K"], cell["Change"]) == (
                    f"{e:.2f}", str(K[no]), signed(c)), (no, rnd)
                assert cell["Note"] == ("difference capped" if capped else "")
            else:
                assert (cell["Expected"], cell["K"], cell["Change"], cell["Note"]) == (
                    "", "", "", f"not rated: {why}"), (no, rnd)
            assert cell["Cumulative"] == signed(cumulative), (no, rnd)


def test_next_round_box_has_the_hand_figures(files, pd_table):
    for no in (1, 2, 4, 6):
        opp = ROUNDS[no][PENDING - 1][0]
        e = expected(pd_table, RATING[no], RATING[opp])
        caption, rows = scenario_box(files[f"player-{no}.html"])
        assert caption.startswith(f"Round {PENDING} v {NAME[opp]} ({RATING[opp]})"
                                  f"expected {e:.2f}, K {K[no]}"), no
        assert rows[0] == ["Result", "This game", "Tournament", "New rating"]
        total = change(pd_table, no)
        for row, word, s in zip(rows[1:], ("Win", "Draw", "Loss"), (1, Decimal("0.5"), 0),
                                strict=True):
            game = K[no] * (s - e)
            assert row == [word, signed(game), signed(total + game),
                           str(RATING[no] + rounded(total + game))], (no, word)
    caption, rows = scenario_box(files["player-3.html"])  # v the unrated no. 5
    total = change(pd_table, 3)
    assert rows == [["Not rated", f"opponent unrated: whatever the result, the change stays "
                                  f"{signed(total)} and the new rating {1990 + rounded(total)}."]]


def test_player_facts_have_the_hand_figures(files, pd_table):
    for no in (1, 2, 3, 4, 6):
        got = facts(files[f"player-{no}.html"])
        total = change(pd_table, no)
        assert got["Rating"] == str(RATING[no]) and got["Points"] == POINTS[no]
        assert got["K"].startswith(f"{K[no]} (")
        assert got["Change"] == (f"{signed(total)} → {whole(total)} → "
                                 f"{RATING[no] + rounded(total)} (exact → rounded → new rating)")
        assert got["Performance"] == PERFORMANCE[no]
    # no. 5's first rating, R24: rated opponents 2000 + 2210, 1 point, 2 hypothetical draws
    # against 1800: Ra = (4210 + 3600) / 4 = 1952.50, p = 2 / 4 = .5, dp 0 → 1953.
    five = facts(files["player-5.html"])
    assert five["Rating"] == "none" and five["First rating"].endswith("2 of 5 games against "
                                                                      "rated opponents")
    assert five["Average rating (Ra)"].startswith("(4210 + 2 × 1800) ÷ 4 = 1952.50")
    assert five["Ra + dp"] == "1952.50 → 1953"


def test_pages_agree_with_the_csv_of_the_same_report(files):
    heads, rows = read_table(files["index.html"], "players")
    by_no = {r["start_no"]: r for r in csv_rows(files, "rating_players.csv")}
    for row in rows:
        cell, line = dict(zip(heads, row, strict=True)), by_no[row[1]]
        assert cell["Rating"] == line["rating"]
        if line["rating"]:
            assert (cell["Change"].split(" → ")[0].lstrip("+"), cell["New"]) == (
                line["change"], line["new_rating"])
        assert (cell["Games"], cell["Perf."]) == (line["rated_games"], line["performance"])
    for line in csv_rows(files, "rating_rounds.csv"):
        _, cards = read_table(files[f"player-{line['start_no']}.html"], "rounds")
        card = cards[int(line["round"]) - 1]
        assert card[8].lstrip("+") == line["change"]
        assert card[9].lstrip("+") == line["cumulative_change"]


def test_ukd_columns_beside_fide_have_the_hand_figures(pd_table):
    files = render_report(build_report(tur_small()))
    heads, rows = read_table(files["index.html"], "players")
    assert heads == [*INDEX_HEADS, "UKD", "UKD change", "New UKD"]
    by_no = {r["start_no"]: r for r in csv_rows(files, "rating_players.csv")}
    for row in rows:
        cell = dict(zip(heads, row, strict=True))
        no = int(cell["No."])
        assert (cell["UKD"], cell["UKD change"], cell["New UKD"]) == UKD[no], no
        line = by_no[str(no)]
        assert (cell["UKD"], cell["UKD change"].lstrip("+"), cell["New UKD"]) == (
            line["national_rating"], line["ukd_change"] if line["ukd_new_rating"] else "",
            line["ukd_new_rating"])
        if RATING[no]:  # FIDE stays as it is without UKD beside it
            assert cell["New"] == str(RATING[no] + rounded(change(pd_table, no)))
    for no, (ukd, chg, new) in UKD.items():
        got = facts(files[f"player-{no}.html"])["UKD"]
        if ukd:
            assert got.startswith(f"{ukd}, K {UKD_K[no]}:") and got.endswith(
                f"change {chg} → {whole(Decimal(chg))} → {new}"), no
        else:
            assert got == "none"


def test_a_wrong_figure_in_a_page_fails_these_checks(monkeypatch, pd_table):
    """The checks read the figures: a formatter off by a hundredth is caught."""
    import reports.render.fmt

    real = reports.render.fmt.change

    def off(value):
        return real(None if value is None else value + Decimal("0.01"))

    monkeypatch.setattr(reports.render.fmt, "change", off)
    wrong = render_report(build_report(small()), ["html"])
    with pytest.raises(AssertionError):
        test_players_table_has_the_hand_figures(wrong, pd_table)


def test_index_page_byte_exact(tmp_path):
    """index.html of small(), byte for byte (the module docstring says why this one)."""
    got = next(p for p in write_report(small(), tmp_path / "out", focus=None, formats=("html",))
               if p.name == "index.html").read_bytes()
    if UPDATE:
        GOLDEN_INDEX.write_bytes(got)
    assert got == GOLDEN_INDEX.read_bytes(), "index.html differs from its golden file"
