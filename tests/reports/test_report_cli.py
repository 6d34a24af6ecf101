"""``fiderate report`` end to end: TRF and normalized folders, real chess-results pages."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from test_report_tables import read_table  # the tests folder is on the path

from importer.model import Status

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "fixtures" / "sample_open.trf"


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))


@pytest.fixture
def sample() -> Path:
    if not SAMPLE.is_file():
        pytest.skip("fixtures/sample_open.trf is not there yet")
    return SAMPLE


def _sample_report(sample: Path):
    """The library's own figures for the sample, to compare the CLI's output with (the sample
    belongs to the TRF reader's author and may change)."""
    import importer
    from reports.report import build_report

    return build_report(importer.load(sample))


def test_report_writes_csv_and_html(run_cli, sample, tmp_path):
    out = tmp_path / "out"
    res = run_cli("report", str(sample), "--out", str(out), "--quiet")
    assert res.code == 0, res
    built = _sample_report(sample)
    players = rows(out / "rating_players.csv")
    assert [r["start_no"] for r in players] == [str(p.start_no) for p in built.rating.players]
    assert [r["change"] for r in players] == [
        f"{p.change:.2f}" if p.rating is not None else "" for p in built.rating.players]
    assert (out / "index.html").is_file()
    assert len(list(out.glob("player-*.html"))) == len(players)
    assert (out / "scenarios.csv").exists() == any(p.scenarios for p in built.rating.players)
    unplayed = [r for r in rows(out / "rating_rounds.csv") if r["status"] == "unplayed"]
    assert all((r["rated"], r["reason"]) == ("false", "less than one move")
               for r in unplayed)


def test_report_formats_and_normalized_folder(run_cli, sample, tmp_path):
    from importer.formats.normalized import write_folder
    from importer.formats.trf import decode_trf, parse_trf

    folder = write_folder(parse_trf(decode_trf(sample.read_bytes()), source="x"), tmp_path / "n")
    out = tmp_path / "out"
    assert run_cli("report", str(folder), "--out", str(out), "--format", "csv", "-q").code == 0
    assert {p.name for p in out.iterdir()} <= {"rating_players.csv", "rating_rounds.csv",
                                                 "scenarios.csv", "rating_tournament.csv",
                                                 "norms.csv", ".fiderate"}
    assert run_cli("report", str(folder), "--out", str(out), "--format", "html", "-q").code == 0
    assert (out / "index.html").is_file()


def test_report_prints_a_table_without_out(run_cli, sample):
    built = _sample_report(sample)
    pr = built.rating.player(17)
    res = run_cli("report", str(sample), "--player", "Dumitrescu")
    assert res.code == 0, res
    assert f"17. Dumitrescu, Radu — {pr.rating}, K {pr.k} ({pr.k_source.value})" in res.stdout
    sign = "+" if pr.change > 0 else ""
    rounded = pr.new_rating - pr.rating
    assert (f"Change {sign}{pr.change:.2f} → {'+' if rounded > 0 else ''}{rounded} → new rating "
            f"{pr.new_rating}") in res.stdout
    assert len([ln for ln in res.stdout.splitlines() if ln[:3].strip().isdigit()]) == len(
        pr.rounds)
    everyone = run_cli("report", str(sample))
    assert everyone.code == 0 and "Varga, Dominik" in everyone.stdout
    assert "Ivanova, Daria" in everyone.stdout


def test_unknown_player_is_one_line_exit_2(run_cli, sample, tmp_path):
    res = run_cli("report", str(sample), "--player", "Dumitresku", "--out", str(tmp_path / "o"))
    assert res.code == 2
    assert res.stderr.strip().splitlines() == [
        "fiderate: error: player 'Dumitresku': no such player; close matches: "
        "Dumitrescu, Radu"]
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args", [("--format", "pdf"), ("--system", "glicko"), ("--k", "0"),
                                  ("--date", "2026-13-01"), ("--open",)])
def test_bad_options_exit_2(run_cli, sample, args):
    res = run_cli("report", str(sample), *args)
    assert res.code == 2 and "Traceback" not in res.stderr


def test_missing_source_exit_2(run_cli, tmp_path):
    res = run_cli("report", str(tmp_path / "nope.trf"), "--out", str(tmp_path / "o"))
    assert res.code == 2 and res.stderr.startswith("fiderate: error:")


def test_help_imports_only_click():
    """``fiderate --help`` lists the commands without importing them (nor their stacks)."""
    code = ("import sys, contextlib, io\nfrom reports.cli import main\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--help'])\n"
            "bad = [n for n in ('pandas', 'jinja2', 'numpy', 'lxml', 'requests', 'rating.systems',"
            " 'reports.cli.report') if n in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_a_report_without_a_register_leaves_numpy_and_the_register_alone(sample, tmp_path):
    """No register on disk: the report neither opens one nor loads numpy (start-up time)."""
    code = ("import sys; from reports.cli import main\n"
            "try:\n"
            f"    main(['report', {str(sample)!r}, '--store', {str(tmp_path / 'none.sqlite')!r},"
            f" '--out', {str(tmp_path / 'out')!r}, '--quiet'])\n"
            "except SystemExit as exc:\n"
            "    assert not exc.code, exc.code\n"
            "print([n for n in ('numpy', 'pandas', 'sqlite3', 'rating.period.register') "
            "if n in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "out" / "index.html").is_file()
    assert not (tmp_path / "none.sqlite").exists()


def test_pending_trf_gives_scenarios(run_cli, fixtures_dir, tmp_path):
    src = fixtures_dir / "trf" / "pending_last_round.trf"
    if not src.is_file():
        pytest.skip("fixtures/trf/pending_last_round.trf is absent")
    out = tmp_path / "out"
    res = run_cli("report", str(src), "--out", str(out), "-q", "--date", "2026-01-01")
    assert res.code == 0, res
    scen = rows(out / "scenarios.csv")
    assert scen
    for r in scen:
        assert Decimal(r["win"]) - Decimal(r["loss"]) == int(r["k"])


# --- real chess-results pages (skipped without ../shared/realdata) ---

BRITISH = "british2026_champ_crosstable.html"


def _hand(opponents: list[tuple[int, float, int]], k: int) -> Decimal:
    """K × Σ(S − PD) by hand: (opponent rating, score, PD in hundredths from table 8.1.2)."""
    return sum((k * (Decimal(str(s)) - Decimal(pd) / 100) for _, s, pd in opponents),
               Decimal("0.00"))


def test_british_championship_all_players(run_cli, realdata, tmp_path):
    out = tmp_path / "british"
    res = run_cli("report", str(realdata / "chess-results" / BRITISH), "--out", str(out), "-q")
    assert res.code == 0, res
    players = {r["start_no"]: r for r in rows(out / "rating_players.csv")}
    assert len(players) == 108
    assert len(list(out.glob("player-*.html"))) == 108
    # Hand-computed from the page (ratings in the Rtg column; PD from table 8.1.2; K 10 for
    # GM/IM titles, else the default 20 as the page gives no birth years or K).
    mcshane = _hand([(2232, 1, 90), (2313, 0.5, 84), (2312, 0.5, 84), (2273, 1, 87),
                     (2410, 1, 74), (2455, 1, 69), (2514, 0, 61)], 10)  # own 2597
    golding = _hand([(2143, 0.5, 79), (2038, 1, 88), (2250, 0.5, 66), (2244, 0.5, 67),
                     (2232, 0, 69), (2220, 0.5, 70)], 10)  # own 2370; round 7 absent
    chapman = _hand([(2239, 0, 9), (2132, 0, 17), (2089, 0, 21), (1933, 0.5, 39),
                     (2008, 0, 30), (2043, 0.5, 26)], 20)  # own 1856; round 6 bye
    assert (mcshane, golding, chapman) == (Decimal("-4.90"), Decimal("-13.90"),
                                           Decimal("-8.40"))
    for no, change, new, k in (("1", mcshane, "2592", "10"), ("21", golding, "2356", "10"),
                               ("106", chapman, "1848", "20")):
        assert (players[no]["change"], players[no]["new_rating"], players[no]["k"]) == (
            str(change), new, k)
    assert players["106"]["k_source"] == "default"
    r21 = [r for r in rows(out / "rating_rounds.csv") if r["start_no"] == "21"]
    assert (r21[6]["rated"], r21[6]["reason"]) == ("false", "absent / not paired")
    assert "K 20 assumed" in (out / "index.html").read_text("utf-8")
    heads, table = read_table((out / "index.html").read_text("utf-8"), "players")
    shown = {r[heads.index("No.")]: dict(zip(heads, r, strict=True)) for r in table}
    for no, change, new, k in (("1", mcshane, "2592", "10"), ("21", golding, "2356", "10"),
                               ("106", chapman, "1848", "20*")):
        assert (shown[no]["Change"].split(" → ")[0], shown[no]["New"], shown[no]["K"]) == (
            str(change), new, k)


def test_british_live_round_scenarios(realdata, tmp_path):
    import importer
    from reports.report import build_report, render_report

    t = importer.load(realdata / "chess-results" / "en_swiss_crosstable_art5_final_british2026.html")
    pending = {r.start_no for r in t.results if r.status is Status.PENDING}
    files = render_report(build_report(t), ["csv"])
    scen = list(csv.DictReader(io.StringIO(files["scenarios.csv"])))
    assert len(pending) == 94 and {r["start_no"] for r in scen} <= {str(n) for n in pending}
    for r in scen:
        win, draw, loss = (Decimal(r[c]) for c in ("win", "draw", "loss"))
        assert win - loss == int(r["k"]) and draw - loss == win - draw


def test_british_player_terminal_table(run_cli, realdata):
    res = run_cli("report", str(realdata / "chess-results" / BRITISH), "--player", "1")
    assert res.code == 0, res
    assert "Change -4.90 → -5 → new rating 2592" in res.stdout


def test_player_card_focus_and_published_performance(run_cli, realdata):
    # ru_player_details_art9_2020.html: a player card (focus = its player, start no. 8); no
    # international rating, so every game is listed as not rated, and the performance equals
    # the card's own 'Рейтинговый перфоманс 1607'.
    card = realdata / "chess-results" / "ru_player_details_art9_2020.html"
    res = run_cli("report", str(card), "--date", "2020-01-05")
    assert res.code == 0, res
    assert "8. Алипов Давид — unrated" in res.stdout
    assert res.stdout.count("not rated: player unrated") == 8
    assert "Performance 1607" in res.stdout


def test_system_ukd_rates_national_ratings(run_cli, realdata):
    pytest.importorskip("rating.systems.ukd")
    card = realdata / "chess-results" / "ru_player_details_art9_2020.html"
    res = run_cli("report", str(card), "--system", "ukd", "--date", "2020-01-05")
    assert res.code == 0, res
    assert "8. Алипов Давид — 1180, K 30 (category)" in res.stdout
    assert "UKD" in res.stdout.splitlines()[0]


def test_ratings_list_option(run_cli, realdata, tmp_path):
    from importer.formats.normalized import write_folder
    from importer.model import Player, RoundResult, Tournament, TournamentInfo

    players = (Player(start_no=1, name="A La, Teng Hua", fide_id="8605360", rating=1949),
               Player(start_no=2, name="Ojok, Patrick", fide_id="10001492", rating=1638))
    results = (RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2, points=1),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1, points=0))
    folder = write_folder(Tournament(info=TournamentInfo(name="x", start_date=date(2026, 9, 1)),
                                     players=players, results=results), tmp_path / "n")
    fide_list = realdata / "fide-list" / "players_list_foa_excerpt.txt"
    out = tmp_path / "out"
    res = run_cli("report", str(folder), "--ratings-list", str(fide_list), "--out", str(out),
                  "--format", "csv", "-q")
    assert res.code == 0, res
    got = {r["start_no"]: (r["k"], r["k_source"]) for r in rows(out / "rating_players.csv")}
    assert got == {"1": ("40", "list"), "2": ("20", "list")}


def test_player_card_with_published_k_and_rtg(run_cli, fixtures_dir, tmp_path):
    """A card with K and rtg+/- columns (fixtures/report/card_k_rtg_en.html): every game's change
    equals the published figure to the hundredth, the unrated
    opponent's game is not rated, and the total equals the card's 'FIDE rtg +/-'."""
    card = fixtures_dir / "report" / "card_k_rtg_en.html"
    out = tmp_path / "card"
    res = run_cli("report", str(card), "--out", str(out), "--date", "2026-03-01", "-q")
    assert res.code == 0, res
    (player,) = rows(out / "rating_players.csv")
    assert (player["start_no"], player["k"], player["k_source"]) == ("17", "20", "card")
    assert Decimal(player["change"]) == Decimal(player["published_change"]) == Decimal("18.8")
    assert player["new_rating"] == "1839" and player["performance"] == "1929"
    games = rows(out / "rating_rounds.csv")
    rated = [g for g in games if g["rated"] == "true"]
    assert len(rated) == 7
    for g in rated:
        assert Decimal(g["change"]) == Decimal(g["published_change"]), g
    assert [g["change"] for g in rated] == ["0.80", "-4.20", "6.80", "12.40", "-0.80", "-1.80",
                                            "5.60"]
    (unrated,) = [g for g in games if g["rated"] == "false"]
    assert (unrated["opponent_name"], unrated["reason"], unrated["published_change"]) == (
        "Unrated, Una", "opponent unrated", "")
    assert sorted(p.name for p in out.glob("player-*.html")) == ["player-17.html"]
    heads, cards = read_table((out / "player-17.html").read_text("utf-8"), "rounds")
    shown = [dict(zip(heads, c, strict=True)) for c in cards]
    assert [c["Change"].lstrip("+") for c in shown if c["Change"]] == [
        "0.80", "-4.20", "6.80", "12.40", "-0.80", "-1.80", "5.60"]  # the card's rtg+/-
    assert {c["K"] for c in shown if c["Change"]} == {"20"}


def test_open_launches_the_index(run_cli, sample, tmp_path, monkeypatch):
    import click

    opened: list[str] = []
    monkeypatch.setattr(click, "launch", lambda url, **kw: opened.append(url) or 0)
    out = tmp_path / "out"
    res = run_cli("report", str(sample), "--out", str(out), "--open", "-q")
    assert res.code == 0, res
    assert opened == [str(out / "index.html")]


def test_report_from_a_tournament_number_through_the_loopback_double(run_cli, realdata,
                                                                     tmp_path, monkeypatch):
    """SOURCE is anything import accepts: a chess-results number, fetched from a local double
    of chess-results.com (tests/support/loopback.py) during round 9 of the British Championship."""
    from loopback import ChessResults

    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FIDERATE_BASE_URL", raising=False)
    d = realdata / "chess-results"
    out = tmp_path / "out"
    with ChessResults() as site:
        site.page("1452107", art=0, body=(d / "en_swiss_startingrank_art0_british2026.html")
                  .read_bytes())
        site.page("1452107", art=5, body=(d / "en_swiss_crosstable_art5_final_british2026.html")
                  .read_bytes())
        site.page("1452107", art=2, body=(d / "british2026_champ_r9.html").read_bytes(), rd=9)
        res = run_cli("report", "1452107", "--base-url", site.url, "--delay", "0",
                      "--no-cache", "--out", str(out), "-q")
    assert res.code == 0, res
    assert len(rows(out / "rating_players.csv")) == 108
    scen = rows(out / "scenarios.csv")
    assert scen and all(Decimal(r["win"]) - Decimal(r["loss"]) == int(r["k"]) for r in scen)


def test_swiss_manager_csv_export_and_truncated_excel(run_cli, realdata, tmp_path):
    d = realdata / "chess-results"
    out = tmp_path / "ss"
    res = run_cli("report", str(d / "san_sebastian_open_33_final_ranking_export.csv"),
                  "--date", "2024-07-01", "--out", str(out), "--format", "csv", "-q")
    assert res.code == 0, res
    assert len(rows(out / "rating_players.csv")) == 150
    bad = run_cli("report", str(d / "xlsx_en_ranking_crosstable_resaved_2025.xlsx"),
                  "--out", str(tmp_path / "x"))
    assert bad.code == 2 and "truncated" in bad.stderr and not (tmp_path / "x").exists()


def test_terminal_notes_are_printed_once(run_cli, fixtures_dir):
    res = run_cli("report", str(fixtures_dir / "trf" / "pending_last_round.trf"))
    assert res.code == 0
    assert "K 20 assumed" in res.stdout
    assert "K 20 assumed" not in res.stderr


@pytest.mark.parametrize("out", [False, True])
def test_source_warnings_are_printed_once(run_cli, realdata, tmp_path, out):
    d = realdata / "chess-results"
    args = [str(d / "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html"),
            str(d / "frome2026_open_notpaired.html")]
    res = run_cli("report", *args, *(["--out", str(tmp_path / "r")] if out else []))
    assert res.code == 0
    assert (res.stdout + res.stderr).count("may be an absence or a requested half-point bye") == 1


def test_the_terminal_shows_a_ranking_pages_published_change_as_the_pages_do(run_cli,
                                                                            fixtures_dir):
    """A final ranking with chess-results' published change shows none of the games: the
    table says the source's figure ('−17.30 published'), never '0.00 → 0' and the old rating
    as the new one."""
    res = run_cli("report", str(fixtures_dir / "chess-results" / "art1_ranking_published_small.html"),
                  "-q")
    assert res.code == 0, res.stderr
    rows = [line for line in res.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert sum("published" in line for line in rows) == 5  # every rated player
    assert not any("0.00 → 0" in line for line in rows)
    one = run_cli("report", str(fixtures_dir / "chess-results" / "art1_ranking_published_small.html"),
                  "-q", "-p", "1")  # one player alone: the same, in words
    assert "the source publishes" in one.stdout and "change -0.90" in one.stdout
    assert "0.00 → 0" not in one.stdout and "Rated games 0" not in one.stdout


NO_RATING = "art5_crosstable_no_rating.html"


def test_a_crosstable_without_its_rating_column_leaves_every_rating_unknown(run_cli, fixtures_dir,
                                                                            tmp_path):
    """The British art=5 crosstable's structure with its rating column hidden: no player is
    'unrated' or rated 0 (no '0 of 5' towards a first rating), every rating is unknown, and
    the report says so once, with what to add."""
    import importer

    page = fixtures_dir / "chess-results" / NO_RATING
    t = importer.load(page)
    assert all(p.rating is None and not p.rating_known for p in t.players)
    res = run_cli("report", str(page), "--out", str(tmp_path / "r"))
    assert res.code == 0, res.stderr
    said = res.stdout + res.stderr
    assert said.count("show no ratings") == 1 and "starting rank" in said
    assert "0 rated" not in said and "ratings unknown" in said
    assert " of 5" not in said
    player = (tmp_path / "r" / "player-1.html").read_text("utf-8")
    assert "unknown: the source does not show it" in player and "Rating</dt><dd>none" not in player
    index = (tmp_path / "r" / "index.html").read_text("utf-8")
    assert index.count("show no ratings") == 1
    with (tmp_path / "r" / "rating_players.csv").open(encoding="utf-8") as f:
        assert {r["rating"] for r in csv.DictReader(f)} == {""}
    one = run_cli("report", str(page), "-p", "1")
    assert "rating unknown" in one.stdout and "unrated" not in one.stdout


def test_a_crosstable_without_ratings_with_its_starting_rank_is_rated(run_cli, fixtures_dir):
    """Pages of one event merge: the starting rank gives the ratings the crosstable hides."""
    d = fixtures_dir / "chess-results"
    res = run_cli("report", str(d / NO_RATING), str(d / "art0_startingrank_small.html"))
    assert res.code == 0, res.stderr
    said = res.stdout + res.stderr
    assert "4 players (3 rated)" in said and "show no ratings" not in said
    rows = {line.split()[0]: line for line in res.stdout.splitlines()
            if line.strip()[:1].isdigit()}
    assert "2400" in rows["1"] and "2396" in rows["1"]  # rated as the crosstable with ratings
