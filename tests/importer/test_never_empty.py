"""Issue 20, items 4 and 7: never a silent empty output, and messages and text that are safe.

Team board pairings saved as a fragment read their boards; a page with nothing to read and
any HTML that is not chess-results are refused with one line (exit 2); a list of teams, two
sides claiming one colour and a starting number on two rows are said in words; control
characters and terminal escape sequences never reach the files or the terminal.  The real
pages are read from ../shared/realdata and rewritten here, never copied into the repository.
"""

from __future__ import annotations

import html
import re
from decimal import Decimal
from pathlib import Path

import pytest

from importer.errors import InputError
from importer.formats.chessresults import build_tournament, looks_like_chess_results, parse_page
from importer.model import Colour, Player, RoundResult, SourceWarning, Status, TournamentInfo
from importer.parsing.pairings import games_from_results
from importer.parsing.text import printable

CR = "chess-results"
BOARDS = "en_team_boardpairings_art3_rd1_cnyt2026.html"
TEAMS = "en_team_pairings_art2_rd1_cnyt2026.html"
START = "en_swiss_startingrank_art0_british2026.html"
EVIL = "\x1b]0;evil\x07\x1b[31m\x9b2J"


def real(realdata: Path, name: str) -> str:
    return (realdata / CR / name).read_bytes().decode("utf-8")


def first_table(text: str) -> str:
    """The first CRs1 table of a page, nested tables included: what a user saving only the
    table (no menu, no heading, no footer) keeps."""
    found = re.search(r"<table class=\"?crs1\b", text, re.IGNORECASE)
    assert found is not None
    start = found.start()
    depth = 0
    for m in re.finditer(r"<(/?)table\b[^>]*>", text[start:]):
        depth += -1 if m[1] else 1
        if depth == 0:
            return text[start:start + m.end()]
    raise AssertionError("unclosed table")


def no_links(text: str) -> str:
    return re.sub(r"<a [^>]*>(.*?)</a>", r"\1", text)


# ------------------------------------------------------------------ team board fragments


def test_team_board_fragment_reads_its_boards(realdata: Path, tmp_path: Path,
                                              run_cli) -> None:
    fragment = first_table(real(realdata, BOARDS))
    assert "Chinese National" not in fragment and looks_like_chess_results(fragment)
    whole = parse_page(real(realdata, BOARDS))
    page = parse_page(fragment, source="fragment.html")
    assert (page.kind, page.round, page.tnr) == ("team_board_pairings", 1, "1472122")
    assert len(page.players) == 32 and len(page.games) == 16
    assert page.players == whole.players and page.games == whole.games
    assert [g.board for g in page.games] == list(range(1, 17))
    assert len({p.team for p in page.players}) == 16
    path = tmp_path / "fragment.html"
    path.write_text(fragment, encoding="utf-8")
    players = run_cli("import", str(path), "-q")
    games = run_cli("import", str(path), "--table", "games", "-q")
    assert (players.code, games.code) == (0, 0)
    assert len(players.stdout.splitlines()) == 33 and len(games.stdout.splitlines()) == 17
    assert "Wang, Hanzhang" in players.stdout and "Hangzhou Chess Association" in players.stdout


def test_team_board_fragment_without_player_links(realdata: Path) -> None:
    """A gated team event shows no snr= links: the boards are still read (by the columns the
    match header heads with the team names), players numbered as they appear."""
    whole = parse_page(real(realdata, BOARDS))
    page = parse_page(no_links(first_table(real(realdata, BOARDS))), source="gated.html")
    assert len(page.players) == 32 and len(page.games) == 16
    assert [w.code for w in page.warnings] == ["numbered-by-appearance"]
    named = {p.start_no: (p.name, p.team, p.rating) for p in page.players}
    was = {p.start_no: (p.name, p.team, p.rating) for p in whole.players}
    assert sorted((named[g.white_no], named[g.black_no], g.board) for g in page.games) == sorted(
        (was[g.white_no], was[g.black_no], g.board) for g in whole.games)


def test_team_board_fragment_without_colour_squares(realdata: Path) -> None:
    text = re.sub(r'<div class="Farbe.T"></div>', "", first_table(real(realdata, BOARDS)))
    page = parse_page(text)
    assert len(page.games) == 16 and {r.colour for r in page.results} == {Colour.NONE}
    assert [g.board for g in page.games] == list(range(1, 17))


def test_team_board_fragment_without_its_round_says_what_to_add(realdata: Path) -> None:
    text = re.sub(r'<tr class="CRg1b"><td class="none"[^>]*>Round 1 on [^<]*</td></tr>', "",
                  first_table(real(realdata, BOARDS)))
    with pytest.raises(InputError, match=r"f\.html: board 1\.1: .*'Round N' caption row.*rd="):
        parse_page(text, source="f.html")


# ------------------------------------------------------------------ nothing to read: exit 2


@pytest.mark.parametrize(("name", "said"), [
    (TEAMS, "a chess-results pairings page of a team event with no boards: save the board "
            "pairings (art=3)"),
    ("warsaw2026_notstarted_r1.html", "no players or games yet"),
])
def test_a_page_with_nothing_to_read_is_refused(realdata: Path, tmp_path: Path, run_cli,
                                                name: str, said: str) -> None:
    path = realdata / CR / name
    for command in (["import", str(path), "--out", str(tmp_path / "o")],
                    ["report", str(path), "--out", str(tmp_path / "r")],
                    ["period", str(path), "--period", "2026-09", "--out", str(tmp_path / "p")]):
        res = run_cli(*command)
        assert res.code == 2, (command, res)
        assert res.stdout == "" and len(res.stderr.strip().splitlines()) == 1
        assert str(path) in res.stderr and said in res.stderr
    assert not any((tmp_path / d).exists() for d in ("o", "r", "p"))


def test_the_server_reads_uploads_the_same_way(realdata: Path) -> None:
    """``fiderate serve`` reads uploaded files through :func:`importer.load_many`
    (reports/web/work.py), which refuses them as the commands do."""
    import importer

    with pytest.raises(InputError, match="team event with no boards"):
        importer.load_many([realdata / CR / TEAMS])


def test_a_starting_list_with_an_empty_page_still_imports(realdata: Path, run_cli) -> None:
    res = run_cli("import", str(realdata / CR / "warsaw2026_notstarted_startingrank.html"),
                  str(realdata / CR / "warsaw2026_notstarted_r1.html"), "-q")
    assert res.code == 0 and len(res.stdout.splitlines()) == 7


def test_html_that_is_not_chess_results_is_refused(tmp_path: Path, run_cli) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    pages = {
        "README.md": readme,  # its examples name chess-results URLs, even in a comment
        "readme.html": "<!DOCTYPE html><html><body>" + "".join(
            f"<p>{html.escape(line)}</p>" for line in readme.splitlines()) + "</body></html>",
        "random.html": "<html><head><title>News</title></head><body><div class='main'><table>"
                       "<tr><td>1</td><td>Smith</td><td>1-0</td></tr></table></div></body></html>",
        "lookalike.html": "<html><body><!-- https://chess-results.com/tnr1452107.aspx -->"
                          "<h2>Chess-Results Server</h2><p>defaultDialog CRs1 CRg1 tnr1.aspx</p>"
                          "<table><tr><td>1.Rd</td></tr></table></body></html>",
    }
    for name, text in pages.items():
        assert not looks_like_chess_results(text), name
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        res = run_cli("import", str(path))
        assert res.code == 2 and res.stdout == "", (name, res)
        assert "not a chess-results page" in res.stderr and "Unnamed" not in res.stderr
        assert len(res.stderr.strip().splitlines()) == 1


def test_every_real_page_is_recognised(realdata: Path) -> None:
    pages = sorted((realdata / CR).glob("*.html"))
    assert len(pages) > 30
    for path in pages:
        text = path.read_bytes().decode("utf-8")
        assert looks_like_chess_results(text), path.name
        if re.search(r"<table class=\"?crs1\b", text, re.IGNORECASE):
            assert looks_like_chess_results(first_table(text)), path.name


# ------------------------------------------------------------------ messages


def test_a_list_of_teams_is_named_as_one(realdata: Path) -> None:
    """A team starting rank (art=32) is a team page: the message says what it is."""
    text = real(realdata, TEAMS)
    rows = ('<tr class="CRg1b"><th class="CRc">No.</th><th class="CR">Team</th>'
            '<th class="CRr">RtgØ</th></tr>' + "".join(
                f'<tr class="CRg{1 + n % 2}"><td class="CRc">{n}</td><td class="CR">Team {n}'
                f'</td><td class="CRr">{1900 - n}</td></tr>' for n in range(1, 9)))
    text = text.replace(first_table(text), f'<table class="CRs1">{rows}</table>')
    with pytest.raises(InputError) as e:
        parse_page(text.replace("art=2&amp;rd=1", "art=32"), source="teams.html")
    assert "a list of teams" in str(e.value) and "board pairings (art=3)" in str(e.value)
    assert "expected" not in str(e.value)


def test_two_sides_claiming_white_are_told_in_words() -> None:
    said: list = []
    pending = [RoundResult(start_no=n, round=4, status=Status.PENDING, opponent_no=3 - n,
                           colour=Colour.WHITE) for n in (1, 2)]
    games_from_results(pending, warn=said.append)
    (w,) = said
    assert w.message == ("round 4: asymmetric pairing: player 1 (White, result pending) vs "
                         "player 2 (White, result pending); both claim White")
    assert w.players == (1, 2) and w.round == 4


def test_merged_pages_claiming_one_colour_say_it_in_words(realdata: Path) -> None:
    import dataclasses
    page = parse_page(real(realdata, "british2026_champ_r1.html"))
    game = page.games[0]
    bent = tuple(dataclasses.replace(r, colour=Colour.WHITE, points=None, status=Status.PENDING)
                 if r.round == game.round and r.start_no in (game.white_no, game.black_no)
                 else r for r in page.results)
    t = build_tournament([dataclasses.replace(page, results=bent)])
    said = [w.message for w in t.warnings if w.code == "same-colour"]
    pair = {game.white_no, game.black_no}
    assert len(said) == 1 and re.fullmatch(r"round 1: players (\d+) and (\d+) both have White",
                                           said[0])
    assert set(map(int, re.findall(r"\d+", said[0])[1:])) == pair
    assert not any("None" in w.message for w in t.warnings)


def duplicated(text: str, name: str | None) -> str:
    """The page with its first player row twice (the copy renamed when *name* is given)."""
    row = re.search(r'<tr class="CRg[12](?: [A-Z]{3})?">.*?</tr>', text, re.S)
    assert row is not None
    copy = row[0] if name is None else row[0].replace("Mcshane, Luke J", name)
    return text.replace(row[0], row[0] + copy, 1)


def test_a_starting_number_on_two_rows(realdata: Path, tmp_path: Path, run_cli) -> None:
    text = real(realdata, START)
    other = tmp_path / "other.html"
    other.write_text(duplicated(text, "Other, Name"), encoding="utf-8")
    res = run_cli("import", str(other))
    assert res.code == 2 and res.stdout == ""
    assert ("starting number 1 appears twice, as 'Mcshane, Luke J' and 'Other, Name'"
            in res.stderr) and str(other) in res.stderr
    t = build_tournament([parse_page(duplicated(text, None), source="same.html")])
    assert len(t.players) == len(parse_page(text).players)
    assert [(w.code, w.players) for w in t.warnings if w.code == "row-twice"] == [
        ("row-twice", (1,))]
    assert "same.html: starting number 1 (Mcshane, Luke J) appears on two rows" in "".join(
        w.message for w in t.warnings)


# ------------------------------------------------------------------ control characters


def test_printable_strips_controls_and_escape_sequences() -> None:
    assert printable(f"Smith{EVIL}, John") == "Smith, John"
    assert printable("a\tb\nc\x00d\x7fe\x85f") == "a b cdef"
    assert printable("Müller, Jörg\u00a0Æ") == "Müller, Jörg\u00a0Æ"  # printable text stays
    p = Player(start_no=1, name=f"{EVIL}Varga", club="\x1b[1mClub", team="T\x9b2J")
    assert (p.name, p.club, p.team) == ("Varga", "Club", "T")
    info = TournamentInfo(name=f"Open{EVIL} 2026", city="\x1b]2;x\x1b\\Cork")
    assert (info.name, info.city) == ("Open 2026", "Cork")
    assert RoundResult(start_no=1, round=1, status=Status.BYE, points=1).points == Decimal(1)
    assert SourceWarning("x", f"player 1 ({EVIL}Ann): odd").message == "player 1 (Ann): odd"


def test_no_escape_reaches_files_or_terminal(fixtures_dir: Path, tmp_path: Path,
                                             run_cli) -> None:
    text = (fixtures_dir / "sample_open.trf").read_text(encoding="utf-8")
    field = re.search(r"Varga, Dominik *", text)
    assert field is not None
    text = text.replace(field[0], f"Varga{EVIL}, Dominik".ljust(len(field[0])), 1)
    text = text.replace("012 Harbourside", f"012 {EVIL}Harbourside", 1)
    path = tmp_path / "evil.trf"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "o"
    res = run_cli("import", str(path), "--out", str(out))
    rep = run_cli("report", str(path), "--out", str(tmp_path / "r"))
    assert (res.code, rep.code) == (0, 0)
    written = [f.read_text(encoding="utf-8") for d in (out, tmp_path / "r")
               for f in sorted(d.iterdir())]
    for shown in [res.stdout, res.stderr, rep.stdout, rep.stderr, *written]:
        assert not any(c in shown for c in "\x1b\x07\x9b"), shown[:200]
    assert "Varga, Dominik" in (out / "players.csv").read_text(encoding="utf-8")
    assert "Harbourside Autumn Open 2026" in (out / "tournament.csv").read_text(encoding="utf-8")


# ------------------------------------------------------------------ report pages


def test_player_pages_only_for_players_with_games(realdata: Path, tmp_path: Path,
                                                  run_cli) -> None:
    pages = [START, "british2026_champ_r1.html"]
    t = build_tournament([parse_page(real(realdata, n), source=n) for n in pages])
    playing = {n for g in t.games for n in (g.white_no, g.black_no)}
    assert playing and len(playing) < len(t.players)
    out = tmp_path / "r"
    res = run_cli("report", *(str(realdata / CR / n) for n in pages), "--out", str(out), "-q")
    assert res.code == 0, res
    assert {f.name for f in out.glob("player-*.html")} == {f"player-{n}.html" for n in playing}
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(html.escape(p.name) in index for p in t.players)  # the index lists everyone
    assert set(map(int, re.findall(r'href="player-(\d+)\.html"', index))) == playing
    bare = tmp_path / "r8"
    res = run_cli("report", str(realdata / CR / "british2026_champ_r8_unpaired_only.html"),
                  "--out", str(bare), "-q")
    assert res.code == 0 and not list(bare.glob("player-*.html"))


def test_unlinked_board_pairings_are_read_alone(realdata: Path) -> None:
    gated = parse_page(no_links(first_table(real(realdata, BOARDS))), source="gated.html")
    assert len(build_tournament([gated]).games) == 16
    with pytest.raises(InputError, match=r"gated\.html: board pairings without player links"):
        build_tournament([gated, parse_page(real(realdata, "cnyt2026_g14_playerrank.html"))])
