"""One identity for events: distinct same-date events stay apart, copies count once, and no
code outside importer.identity decides sameness."""

from __future__ import annotations

import csv
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from importer.events import Event, distinct_events
from importer.formats.trf.writer import write_trf
from importer.identity import EventIdentity, SameBy, same_player, shows_games_of
from importer.model import Colour, Player, RoundResult, Status, System, Tournament, TournamentInfo

ROOT = Path(__file__).resolve().parents[2]
ROUND_ROBIN = (((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1)))


def quad(q: int, *, day: date = date(2026, 3, 15), ids: bool = True) -> Tournament:
    """Club quad *q*: its own four players; every game won by White (one pattern for all)."""
    results = []
    for rnd, pairs in enumerate(ROUND_ROBIN, 1):
        for white, black in pairs:
            results += [RoundResult(start_no=white, round=rnd, status=Status.PLAYED,
                                    opponent_no=black, colour=Colour.WHITE, points=Decimal(1)),
                        RoundResult(start_no=black, round=rnd, status=Status.PLAYED,
                                    opponent_no=white, colour=Colour.BLACK, points=Decimal(0))]
    players = tuple(Player(start_no=no, name=f"Player{q:02d}{no}, Anna", federation="ENG",
                           fide_id=str(99_300_000 + q * 10 + no) if ids else "",
                           rating=1900 + 50 * no, birth_year=1990,
                           points=Decimal(sum(r.points for r in results if r.start_no == no)))
                    for no in range(1, 5))
    info = TournamentInfo(name=f"Club Quad {chr(65 + q)}", start_date=day, end_date=day, rounds=3,
                          system=System.ROUND_ROBIN, time_control="90 min + 30 sec")
    return Tournament(info=info, players=players, results=tuple(results))


def _quads(folder: Path, count: int = 12) -> list[str]:
    folder.mkdir(exist_ok=True)
    paths = []
    for q in range(count):
        path = folder / f"quad_{q:02d}.trf"
        path.write_text(write_trf(quad(q)), encoding="utf-8")
        paths.append(str(path))
    return paths


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_twelve_same_date_quads_are_twelve_tournaments_and_a_copy_changes_nothing(
        run_cli, tmp_path) -> None:
    quads = _quads(tmp_path / "in")
    copy = tmp_path / "in" / "quad_03 (copy).trf"
    copy.write_bytes(Path(quads[3]).read_bytes())
    for given, out in ((quads, "out"), ([*quads, str(copy)], "out2")):
        got = run_cli("period", *given, "--period", "2026-04", "--store",
                      str(tmp_path / f"{out}.sqlite"), "--out", str(tmp_path / out))
        assert got.code == 0, got.stderr
        assert "12 tournaments, 144 rated games; 48 rated" in got.stdout + got.stderr
        games = _rows(tmp_path / out / "period_games.csv")
        assert len(games) == 144
        assert len({g["tournament"] for g in games}) == 12
        assert len(_rows(tmp_path / out / "period_players.csv")) == 48
    assert got.stderr.count("counted once") == 1
    assert "the same 6 games of the same 4 players: it is counted once" in got.stderr
    sources = {g["sources"] for g in _rows(tmp_path / "out2" / "period_games.csv")}
    assert any("quad_03 (copy).trf" in s and "quad_03.trf" in s for s in sources)


def test_separate_keeps_a_copy_apart_when_the_user_says_it_is_another_event(
        run_cli, tmp_path) -> None:
    one, two = _quads(tmp_path / "in", 1)[0], tmp_path / "in" / "replay.trf"
    two.write_bytes(Path(one).read_bytes())
    got = run_cli("period", one, "--separate", str(two), "--period", "2026-04", "--store",
                  str(tmp_path / "r.sqlite"), "--out", str(tmp_path / "out"))
    assert got.code == 0, got.stderr
    assert "2 tournaments, 24 rated games" in got.stdout + got.stderr
    assert "counted once" not in got.stderr


def test_same_players_and_games_on_two_dates_are_two_events() -> None:
    weekly = [quad(0, day=date(2026, 3, d)) for d in (3, 10)]
    assert EventIdentity.of(weekly[0]).same_as(EventIdentity.of(weekly[1])) is None
    assert len(distinct_events([Event.of(t, [f"w{i}"]) for i, t in enumerate(weekly)])) == 2


def test_a_copy_without_ids_is_the_same_event_by_names_and_a_snapshot_the_earlier() -> None:
    full, no_ids = EventIdentity.of(quad(1)), EventIdentity.of(quad(1, ids=False))
    assert full.same_as(no_ids).by is SameBy.GAMES
    early = quad(1)
    early = replace(early, results=tuple(r for r in early.results if r.round < 3))
    same = EventIdentity.of(early).within(full)
    assert same is not None and same.by is SameBy.SNAPSHOT
    assert "first rounds" in same.words and full.within(EventIdentity.of(early)) is None
    found = distinct_events([Event.of(early, ["early.trf"]), Event.of(quad(1), ["final.trf"])])
    assert [e.label for e in found.events] == ["final.trf"]
    assert "the newer, final.trf (after round 3)" in found.notes[0].message


def test_a_source_matching_two_events_by_names_alone_joins_neither_and_says_so() -> None:
    a, b = quad(2), quad(2)  # namesakes: the same names and games, other FIDE ids
    b = replace(b, players=tuple(replace(p, fide_id=str(int(p.fide_id) + 5_000)) for p in b.players))
    found = distinct_events([Event.of(a, ["a.trf"]), Event.of(b, ["b.trf"]),
                             Event.of(quad(2, ids=False), ["c.xlsx"])])
    assert len(found) == 3
    assert found.notes[0].code == "ambiguous-event"
    assert found.notes[0].message.startswith("c.xlsx shows the same games as a.trf and as b.trf")


def test_one_player_under_two_spellings_with_one_id_is_one_and_namesakes_are_two() -> None:
    assert same_player("4100018", "Adams, Michael", "4100018", "ADAMS Mickey")
    assert not same_player("4100018", "Adams, Michael", "4100019", "Adams, Michael")
    assert same_player("", "Adams, Michael", "4100018", "Michael Adams")


def test_a_fide_page_is_held_by_the_tournament_with_its_games_not_by_its_name_or_date() -> None:
    t = quad(4)
    me = t.players[0]
    shown = replace(t, players=(me, *(replace(p, fide_id="") for p in t.players[1:])),
                    results=tuple(r for r in t.results if me.start_no in (r.start_no, r.opponent_no)))
    assert shows_games_of(t, me, shown)
    other = quad(5)  # the same date, the same pattern, other players
    assert not shows_games_of(other, me, shown)
    changed = replace(shown, results=tuple(replace(r, points=1 - r.points) if r.round == 1 else r
                                           for r in shown.results))
    assert not shows_games_of(t, me, changed)


SAMENESS = re.compile(r"fingerprint|fide_event_id\s*==|==\s*[\w.]*fide_event_id|info\.id\s*=="
                      r"|def same_as|def _holds|by_file_name|SAME_PLAYERS"
                      r"|name_key\([^)]*\)\s*==\s*name_key\(|\.fide_id\s*==\s*[\w.]*fide_id")
"""Code deciding that two events or players are the same (outside importer.identity)."""


def _offenders(root: Path) -> list[str]:
    return [f"{path.relative_to(root)}:{n}: {line.strip()}"
            for package in ("importer", "rating", "reports")
            for path in sorted((root / package).rglob("*.py"))
            if path.relative_to(root).as_posix() != "importer/identity.py"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if SAMENESS.search(line) and ">>>" not in line]


def test_no_code_outside_the_identity_module_decides_sameness() -> None:
    assert _offenders(ROOT) == []


@pytest.mark.parametrize("line", [
    "    if a.info.fide_event_id == b.info.fide_event_id:",
    "    same = name_key(a.name) == name_key(b.name)",
    "    if p.fide_id == calc.fide_id:",
])
def test_the_sameness_grep_can_fail(tmp_path, line) -> None:
    (tmp_path / "rating").mkdir()
    (tmp_path / "rating" / "x.py").write_text(f"def f(a, b):\n{line}\n")
    assert _offenders(tmp_path) != []
