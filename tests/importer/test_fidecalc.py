"""FIDE's individual-calculations page (ratings.fide.com) as a source and as a period's check.

The fixture ``fixtures/fide/garr_2025-12_standard.html`` follows the page's real structure
(see ``fixtures/fide/README.md``); its figures are those of FIDE's published calculation F-P02
(ZF-FIX) for two of its events, and ``dulles_autumn_open.trf`` / ``northern_open.trf`` are
the matching tournaments, so our period gives FIDE's figures exactly.
"""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest
import responses
from responses import matchers

from importer.errors import InputError
from importer.formats.fidecalc import parse_fide_calculation, to_tournaments
from importer.model import Colour, RatingList, Status
from importer.net.http import make_session
from importer.net.urls import is_allowed_host, parse_fide_calc_url
from importer.sources import load_fide_url

FIDE = Path(__file__).resolve().parents[2] / "fixtures" / "fide"
PAGE = FIDE / "garr_2025-12_standard.html"
TRFS = [str(FIDE / "dulles_autumn_open.trf"), str(FIDE / "northern_open.trf")]
LIST = str(FIDE.parent / "period" / "players_list_foa_nov25.txt")
DATA_URL = "https://ratings.fide.com/a_indv_calculation.php"

GAMES_A = [  # opponent, title, rating used, capped, fed, colour, result, chg, K, K×chg
    ("Moss, Ivo", "", 2000, True, "ENG", Colour.WHITE, "1", "0.08", 10, "0.80"),
    ("Nunez, Lia", "", 2000, True, "ESP", Colour.BLACK, "1", "0.08", 10, "0.80"),
    ("Quinn, Ada", "FM WIM", 2121, False, "IRL", Colour.WHITE, "1", "0.16", 10, "1.60"),
    ("Arkell, Magnus", "GM", 2800, True, "NOR", Colour.WHITE, "0", "-0.08", 10, "-0.80"),
    ("Voss, Tim", "", 2084, False, "GER", Colour.BLACK, "1", "0.13", 10, "1.30")]
GAMES_B = [
    ("Pryce, Owen", "", 2000, True, "WLS", Colour.WHITE, "1", "0.08", 10, "0.80"),
    ("Rahm, Ute", "", 2000, True, "AUT", Colour.BLACK, "1", "0.08", 10, "0.80"),
    ("Sato, Ken", "CM", 2230, False, "JPN", Colour.WHITE, "1", "0.28", 10, "2.80"),
    ("Tull, Bea", "IM", 2505, False, "USA", Colour.BLACK, "1", "0.64", 10, "6.40"),
    ("Ueda, Mio", "", 2155, False, "JPN", Colour.WHITE, "0.5", "-0.30", 10, "-3.00")]


def _period(run_cli, tmp_path: Path, *sources: str, out: str = "out"):
    return run_cli("period", *sources, "--period", "2025-12", "--ratings-list", LIST,
                   "--store", str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / out),
                   "--no-html")


def _check_rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "period_fide_check.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _altered(tmp_path: Path) -> Path:
    text = PAGE.read_text(encoding="utf-8")
    text = text.replace("<b>11.50</b>", "<b>12.50</b>")
    text = text.replace("<td class=list4 align=center>2400</td>",
                        "<td class=list4 align=center>2401</td>", 1)
    sato = text.index("Sato, Ken")
    at = text.index("2.80", sato)
    text = text[:at] + "3.80" + text[at + 4:]
    path = tmp_path / "altered.html"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_page_reads_every_event_and_game_with_its_figures() -> None:
    calc = parse_fide_calculation(PAGE.read_text(encoding="utf-8"), source="p")
    assert (calc.name, calc.fide_id, calc.federation) == ("Garr, Fay", "99200007", "")
    assert (f"{calc.period:%Y-%m}", calc.rating_list) == ("2025-12", RatingList.STANDARD)
    assert calc.total_change == Decimal("11.50")
    a, b = calc.events
    assert (a.name, a.event_id, a.place, str(a.start), str(a.end)) == (
        "Dulles Autumn Open", "489101", "Oak Grove, VA USA", "2025-11-07", "2025-11-09")
    assert (a.rc, a.rp, a.ro, a.w, a.n, a.change, a.k, a.k_change) == (
        2201, None, 2400, Decimal("4.00"), 5, Decimal("0.37"), 10, Decimal("3.70"))
    assert (b.name, b.rc, b.w, b.change, b.k_change) == (
        "Northern Open - Championship", 2178, Decimal("4.50"), Decimal("0.78"), Decimal("7.80"))
    for ev, expected in ((a, GAMES_A), (b, GAMES_B)):
        got = [(g.opponent, g.title, g.rating, g.capped, g.federation, g.colour, g.result,
                g.change, g.k, g.k_change) for g in ev.games]
        assert got == [(*row[:6], Decimal(row[6]), Decimal(row[7]), row[8], Decimal(row[9]))
                       for row in expected]


def test_each_event_is_a_tournament_keeping_fide_figures() -> None:
    calc = parse_fide_calculation(PAGE.read_text(encoding="utf-8"), source="p")
    first, second = to_tournaments(calc)
    assert (first.info.name, first.info.fide_event_id, first.info.rating_list,
            first.info.rounds, first.focus) == ("Dulles Autumn Open", "489101",
                                                RatingList.STANDARD, 5, 1)
    me = first.player(1)
    assert me is not None
    assert (me.name, me.fide_id, me.rating, me.k, me.rating_change, me.published_games) == (
        "Garr, Fay", "99200007", 2400, 10, Decimal("3.70"), 5)
    assert [p.start_no for p in second.players] == [1, 2, 3, 4, 5, 6]  # synthetic, stated
    assert any("no start numbers" in w.message for w in second.warnings)
    mine = first.results_of(1)
    assert [(r.round, r.opponent_no, r.status, r.points, r.k, r.rating_change) for r in mine] == [
        (i, i + 1, Status.PLAYED, Decimal(g[6]), 10, Decimal(g[9]))
        for i, g in enumerate(GAMES_A, 1)]
    assert [first.player(r.opponent_no).rating for r in mine] == [g[2] for g in GAMES_A]


def test_import_of_a_one_event_page_and_refusal_of_two(run_cli, tmp_path: Path) -> None:
    text = PAGE.read_text(encoding="utf-8")
    one = text[:text.index('<div class="default_div_full">\n\t<div class="rtng_line01">'
                           '<a href=/report.phtml?event=489377')]
    (tmp_path / "one.html").write_text(one, encoding="utf-8")
    res = run_cli("import", str(tmp_path / "one.html"), "--out", str(tmp_path / "one"), "-q")
    assert res.code == 0, res
    players = (tmp_path / "one" / "players.csv").read_text(encoding="utf-8")
    assert '1,"Garr, Fay",,,99200007,2400' in players
    res = run_cli("import", str(PAGE), "--out", str(tmp_path / "two"), "-q")
    assert res.code == 2 and len(res.stderr.strip().splitlines()) == 1, res
    assert "Dulles Autumn Open; Northern Open - Championship" in res.stderr
    assert not (tmp_path / "two").exists()


def test_period_with_the_page_and_its_tournaments_has_no_difference(run_cli,
                                                                    tmp_path: Path) -> None:
    res = _period(run_cli, tmp_path, *TRFS, str(PAGE))
    assert res.code == 0, res
    assert "2 tournaments, 20 rated games" in res.stdout  # the page is a check, not an event
    assert "for Garr, Fay: 0 differences in 75 figures" in res.stderr
    assert _check_rows(tmp_path / "out") == []
    players = (tmp_path / "out" / "period_players.csv").read_text(encoding="utf-8")
    assert '99200007,"Garr, Fay",standard,2400,10,10,11.50,12,2412,rated' in players


def test_an_altered_page_gives_each_difference_with_both_values(run_cli,
                                                                tmp_path: Path) -> None:
    res = _period(run_cli, tmp_path, *TRFS, str(_altered(tmp_path)))
    assert res.code == 0, res
    assert "3 differences in 75 figures" in res.stderr
    assert "northern_open, round 3, Sato, Ken: K×chg 3.80 on FIDE's page, 2.80 here" in res.stderr
    rows = [tuple(r.values()) for r in _check_rows(tmp_path / "out")]
    assert rows == [
        ("99200007", "Garr, Fay", "dulles_autumn_open", "", "Ro", "2401", "2400"),
        ("99200007", "Garr, Fay", "northern_open", "round 3, Sato, Ken", "K×chg", "3.80", "2.80"),
        ("99200007", "Garr, Fay", "", "", "total change", "12.50", "11.50")]


def test_an_event_no_tournament_holds_is_rated_from_the_page(run_cli, tmp_path: Path) -> None:
    res = _period(run_cli, tmp_path, TRFS[1], str(PAGE))
    assert res.code == 0, res
    assert "no tournament given holds Dulles Autumn Open: it is rated from FIDE's page" in (
        res.stderr)
    assert "0 differences" in res.stderr
    players = (tmp_path / "out" / "period_players.csv").read_text(encoding="utf-8")
    assert '99200007,"Garr, Fay",standard,2400,10,10,11.50,12,2412,rated' in players


def test_the_url_goes_through_the_polite_session() -> None:
    page = ("https://ratings.fide.com/calculations.phtml?id_number=99200007&period=2025-12-01"
            "&rating=0")
    ref = parse_fide_calc_url(page)
    assert ref is not None and ref.data_url() == (
        f"{DATA_URL}?id_number=99200007&rating_period=2025-12-01&t=0")
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        mock.get(DATA_URL, body=PAGE.read_bytes(), content_type="text/html", match=[
            matchers.query_param_matcher({"id_number": "99200007",
                                          "rating_period": "2025-12-01", "t": "0"}),
            matchers.header_matcher({"X-Requested-With": "XMLHttpRequest",
                                     "Referer": ref.page_url()})])
        got = load_fide_url(page, session=make_session(delay=0, cache=False))
    assert [t.info.name for t in got.tournaments] == ["Dulles Autumn Open",
                                                      "Northern Open - Championship"]
    assert got.tournaments[0].provenance[0].location == ref.data_url()


def test_only_the_calculations_are_fetched_from_fide() -> None:
    assert is_allowed_host(f"{DATA_URL}?id_number=1&rating_period=2025-12-01&t=0", None)
    for url in ("https://ratings.fide.com/profile/1", "http://ratings.fide.com/a_indv_calculation.php",
                "https://ratings.fide.com.evil.example/a_indv_calculation.php",
                "https://fide.com/a_indv_calculation.php"):
        assert not is_allowed_host(url, None), url
    assert parse_fide_calc_url("https://ratings.fide.com/calculations.phtml?id_number=1") is None
    assert parse_fide_calc_url(
        "ratings.fide.com/a_indv_calculations.php?id_number=7&rating_period=2024-09-01&t=2"
    ).rating_list is RatingList.BLITZ


def test_read_by_structure_in_another_layout() -> None:
    page = """<html><body><h2>Garr, Fay</h2><table><tr><td>
    <div><strong>Rapid Ratings May 2026</strong> Total change: <b>-1,20</b></div>
    <p><a href="https://ratings.fide.com/report.phtml?event=7">Spring Rapid</a>
       <strong>Oslo NOR</strong> <span>2026-04-11</span> <span>2026-04-11</span></p>
    <table><tr><th>Rp</th><th>Ro</th><th></th><th></th><th></th><th>W</th><th>N</th>
      <th>Change</th><th>K</th><th>K * chg</th></tr>
    <tr><td>1900</td><td></td><td></td><td></td><td></td><td>0,50</td><td>1</td><td>-0,03</td>
      <td>40</td><td>-1,20</td></tr>
    <tr><td><span class="black_note"></span> Holt, Hal</td><td>NOR</td><td>wg</td>
      <td>2310</td><td></td><td>0,50</td><td>1</td><td>-0,03</td><td>40</td><td>-1,20</td></tr>
    </table></td></tr></table></body></html>"""
    calc = parse_fide_calculation(page, source="x")
    assert (calc.rating_list, f"{calc.period:%Y-%m}", calc.total_change) == (
        RatingList.RAPID, "2026-05", Decimal("-1.20"))
    (ev,) = calc.events
    assert (ev.name, ev.event_id, ev.place, ev.rp, ev.ro, ev.k_change) == (
        "Spring Rapid", "7", "Oslo NOR", 1900, None, Decimal("-1.20"))
    (g,) = ev.games
    assert (g.opponent, g.federation, g.title, g.rating, g.colour, g.result) == (
        "Holt, Hal", "NOR", "WGM", 2310, Colour.BLACK, Decimal("0.5"))


@pytest.mark.parametrize(("body", "words"), [
    ('<table class="calc_table"><tr><td>nothing here</td></tr></table>', "shows no event"),
    ('<div class="rtng_line01"><a href=/report.phtml?event=1>E</a></div><table class=calc_table>'
     "<tr><td>Rc</td><td>Ro</td><td>w</td><td>n</td><td>chg</td><td>K</td><td>K*chg</td></tr>"
     "</table>", "E: no summary row"),
    ('<table class=calc_table><tr><td>Rc</td><td>Ro</td><td></td><td>w</td><td>n</td>'
     "<td>chg</td><td>K</td><td>K*chg</td></tr><tr><td>2000</td><td>2100</td><td></td>"
     "<td>1.00</td><td>1</td><td>0.24</td><td>20</td><td>4.80</td></tr><tr>"
     '<td><span class="white_note"></span> A, B</td><td>2000</td><td></td><td>1.50</td>'
     "<td>1</td><td>0.24</td><td>20</td><td>4.80</td></tr></table>",
     "result '1.50', expected 1.00, 0.50 or 0.00"),
    ("<table class=calc_table><tr><td>Rc</td><td>Ro</td><td>w</td><td>n</td><td>chg</td>"
     "<td>K</td><td>K*chg</td></tr><tr><td>x</td><td>Ro?</td><td></td><td></td><td></td>"
     "<td></td><td></td></tr></table>", "Rc reads 'x', expected a number"),
])
def test_a_bad_fide_page_is_one_line_and_exit_2(run_cli, tmp_path: Path, body: str,
                                                words: str) -> None:
    path = tmp_path / "calc.html"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=r"calc\.html"):
        parse_fide_calculation(body, source=str(path))
    res = run_cli("import", str(path), "--out", str(tmp_path / "out"))
    assert res.code == 2, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], res.stderr
    assert "Traceback" not in res.stderr


def test_the_readme_example_runs_as_shown(run_cli, tmp_path: Path, monkeypatch) -> None:
    readme = (FIDE.parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### FIDE's calculations page: a check on the month\n", 1)[1]
    command = section.split("```sh\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0].strip().splitlines()
    args = command.replace("\\\n", " ").split()
    assert args[0] == "fiderate"
    args = [a.replace("/tmp/", f"{tmp_path}/") for a in args[1:]]
    monkeypatch.chdir(FIDE.parents[1])
    res = run_cli(*args)
    assert res.code == 0, res
    assert res.stdout.strip() == shown[0].replace("/tmp/", f"{tmp_path}/")
    assert shown[1] in res.stderr.splitlines()
    assert _check_rows(tmp_path / "fide") == []


def test_period_reads_the_page_by_its_address(run_cli, tmp_path: Path) -> None:
    url = f"{DATA_URL}?id_number=99200007&rating_period=2025-12-01&t=0"
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        mock.get(DATA_URL, body=PAGE.read_bytes(), content_type="text/html")
        res = _period(run_cli, tmp_path, *TRFS, url, "--no-cache", "--delay", "0", "-q")
    assert res.code == 0, res
    assert "2 tournaments, 20 rated games" in res.stdout
    assert _check_rows(tmp_path / "out") == []


def test_no_chess_results_page_is_taken_for_fide_s(realdata: Path) -> None:
    from importer.formats.fidecalc import looks_like_fide_calculation
    from importer.parsing.decoding import decode_page

    pages = sorted((realdata / "chess-results").glob("*.html"))
    assert pages
    for page in pages:
        assert not looks_like_fide_calculation(decode_page(page.read_bytes())), page.name


def test_an_unrated_player_s_page_is_not_compared_game_by_game(run_cli, tmp_path: Path) -> None:
    text = PAGE.read_text(encoding="utf-8").replace("/profile/99200007", "/profile/99200999")
    text = text.replace("Garr, Fay", "Ng, Al").replace("<b>Rc</b>", "<b>Rp</b>")
    text = text.replace("<td class=list4 align=center>2400</td>",
                        "<td class=list4 align=center></td>")
    path = tmp_path / "unrated.html"
    path.write_text(text, encoding="utf-8")
    calc = parse_fide_calculation(text, source="u")
    assert [(e.rc, e.rp, e.ro) for e in calc.events] == [(None, 2201, None), (None, 2178, None)]
    assert to_tournaments(calc)[0].player(1).published_performance == 2201
    res = _period(run_cli, tmp_path, str(path))
    assert res.code == 0, res
    assert "Ng, Al is unrated here" in res.stderr
    assert _check_rows(tmp_path / "out") == []


def test_a_page_of_another_month_says_so(run_cli, tmp_path: Path) -> None:
    res = run_cli("period", *TRFS, str(PAGE), "--period", "2026-01", "--ratings-list", LIST,
                  "--store", str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out"),
                  "--no-html")
    assert res.code == 0, res
    assert f"{PAGE.name} is FIDE's calculation of 2025-12, not of 2026-01" in res.stderr


def test_the_web_period_keeps_the_check_file(tmp_path: Path) -> None:
    import shutil
    from datetime import date

    from reports.web.uploads import Upload
    from reports.web.work import PeriodRequest, period_files

    for p in (*TRFS, LIST):  # one folder of uploads, as the server keeps them
        shutil.copy(p, tmp_path)
    names = [Path(p).name for p in TRFS] + [_altered(tmp_path).name]
    uploads = [Upload(path=tmp_path / n, name=n) for n in names]
    got = period_files(uploads, Upload(path=tmp_path / Path(LIST).name, name="list.txt"),
                       PeriodRequest(period=date(2025, 12, 1)), {})
    rows = got.files["period_fide_check.csv"].splitlines()
    assert rows[0] == "fide_id,name,tournament,game,figure,fide,ours" and len(rows) == 4
    assert any("3 differences in 75 figures" in n for n in got.notes)


def test_a_game_on_one_side_only_is_a_difference(run_cli, tmp_path: Path) -> None:
    text = PAGE.read_text(encoding="utf-8")
    start = text.rindex("\t\t\t<tr bgcolor=#efefef>", 0, text.index("Voss, Tim"))
    end = text.index("</tr>", text.index("Voss, Tim")) + len("</tr>\n")
    path = tmp_path / "short.html"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    res = _period(run_cli, tmp_path, *TRFS, str(path))
    assert res.code == 0, res
    rows = [tuple(r.values())[2:] for r in _check_rows(tmp_path / "out")]
    assert ("dulles_autumn_open", "round 5, Voss, Tim", "rated game", "—", "rated") in rows
    assert ("dulles_autumn_open", "", "n", "5", "5") not in rows  # the summary still says 5


def test_a_page_saved_as_mhtml_is_the_same_page(tmp_path: Path) -> None:
    from test_mhtml import mhtml

    from importer.sources import read_file

    saved = tmp_path / "calc.mhtml"
    url = f"{DATA_URL}?id_number=99200007&rating_period=2025-12-01&t=0"
    saved.write_bytes(mhtml(PAGE.read_text(encoding="utf-8"), url))
    got = read_file(saved, pages=True)
    assert got.calculation == parse_fide_calculation(PAGE.read_text(encoding="utf-8"),
                                                     source=str(saved))
