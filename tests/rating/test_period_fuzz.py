"""Fuzzing the rating period as the importers are fuzzed: whatever a tournament holds that an
importer can give (any start number, any rating the readers accept, any mix of results), the
period rates it or refuses it in one line — never an internal error, never a blow-up in memory.

Two sources of input: tournaments drawn directly (start numbers up to 10**30, ids of every
shape, players on lists or not, a register), and the importers' own fuzzed pages read into
tournaments first.  ``HYPOTHESIS_PROFILE=ci`` runs the full budget (over 10,000 inputs).
"""

from __future__ import annotations

import random
import re
import resource
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_fuzz import READABLE, _merged, _mutate, consistent, own_page, page_text

import importer
from importer.errors import ImporterError
from importer.formats.chessresults import parse_page
from importer.model import (
    Colour,
    DateSource,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.errors import RatingError
from rating.period.records import PeriodResult, PeriodStatus, Standing
from rating.period.run import PeriodSource, run_period
from rating.systems.fide_rules import rules_for

MEMORY_LIMIT = 1 << 30
"""No input may make the period hold more than this (1 GB) at once."""
SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PERIOD = date(2026, 11, 1)
TODAY = date(2026, 11, 5)
HALF = Decimal("0.5")

@pytest.fixture(autouse=True, scope="module")
def _memory() -> Iterator[None]:
    """The process's peak memory grows by less than MEMORY_LIMIT over every input (an array
    sized by a start number of 400,000,000 alone would take 3 GB)."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    yield
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert grown < MEMORY_LIMIT, f"the peak memory grew by {grown / 1e6:.0f} MB"


START_NUMBERS = [400_000_000, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, 10**30]
FIDE_IDS = ["", "", "", "400041", "1503014", "0", "007", " 12 ", "99999999999999999999", "ENG-1"]
NAMES = ["Adams, Michael", "Adams Michael", "", "Ümit, Öz", "Smith, John", "Smith John"]
SPECIAL_RATINGS = [None, None, 1, 1399, 1400, 2400, 2650, 3500]


def tournament(rng: random.Random) -> Tournament:
    """A tournament as an importer could give it: unique start numbers (any size), results one
    per player and round, opponents among the players, points 0, ½ or 1.  Drawn from *rng*
    (hypothesis draws the seed: a draw per field would cost more than the period itself)."""
    def rating() -> int | None:
        return rng.choice(SPECIAL_RATINGS) if rng.random() < 0.3 else rng.randint(1000, 2800)

    nos = rng.sample([*range(1, 41), *START_NUMBERS], rng.randint(0, 10))
    players = [Player(
        start_no=no, name=rng.choice([*NAMES, f"P{i}"]),
        federation=rng.choice(["ENG", "", "NOR", "eng", "XYZ"]),
        fide_id=rng.choice([*FIDE_IDS, str(rng.randint(1, 10**9))]), rating=rating(),
        rating_known=rng.random() < 0.9,
        birth_year=rng.choice([None, rng.randint(1900, 2025)]),
        title=rng.choice(["", "GM", "WGM", "CM"]), category=rng.choice(["", "U18", "S65"]),
        k=rng.choice([None, None, 10, 20, 40])) for i, no in enumerate(nos)]
    results: list[RoundResult] = []
    for rd in range(1, rng.randint(0, 6) + 1):
        order = rng.sample(nos, len(nos))
        pairs, rest = order[: len(order) // 2 * 2], order[len(order) // 2 * 2:]
        for w, b in zip(pairs[::2], pairs[1::2], strict=True):
            status = rng.choice([Status.PLAYED] * 4 + [Status.FORFEIT_WIN, Status.UNPLAYED,
                                                       Status.PENDING])
            if status is Status.FORFEIT_WIN:
                results += [RoundResult(start_no=w, round=rd, status=status, opponent_no=b,
                                        points=Decimal(1)),
                            RoundResult(start_no=b, round=rd, status=Status.FORFEIT_LOSS,
                                        opponent_no=w, points=Decimal(0))]
                continue
            score = None if status is Status.PENDING else rng.choice([Decimal(0), HALF, Decimal(1)])
            results += [RoundResult(start_no=w, round=rd, status=status, opponent_no=b,
                                    colour=Colour.WHITE, points=score),
                        RoundResult(start_no=b, round=rd, status=status, opponent_no=w,
                                    colour=Colour.BLACK,
                                    points=None if score is None else 1 - score)]
        for no in rest:
            status = rng.choice([Status.BYE, Status.ABSENT, Status.UNKNOWN])
            results.append(RoundResult(start_no=no, round=rd, status=status,
                                       points=Decimal(1) if status is Status.BYE else None))
    start = rng.choice([None, date(1995, 1, 1) + timedelta(days=rng.randint(0, 11600))])
    info = TournamentInfo(
        id=rng.choice(["", "1452107", "7"]), fide_event_id=rng.choice(["", "485896"]),
        name=rng.choice(["", "Open", "British Championship"]), start_date=start,
        end_date=None if start is None else start + timedelta(days=rng.randint(0, 40)),
        date_source=rng.choice(list(DateSource)), rating_list=rng.choice([None, *RatingList]))
    return Tournament(info=info, players=tuple(players), results=tuple(results))


def standings(rng: random.Random, given: list[Tournament]) -> dict[tuple[str, RatingList], Standing]:
    """A previous list holding some of the players (by id), with any rating or none."""
    return {(p.fide_id.strip(), RatingList.STANDARD): Standing(
        rating=rng.choice(SPECIAL_RATINGS), k=rng.choice([None, 10, 20, 40]),
        inactive=rng.random() < 0.2)
        for t in given for p in t.players if p.fide_id.strip().isdigit() and rng.random() < 0.5}


def refused(exc: RatingError) -> None:
    """A refusal is one line."""
    assert str(exc) and "\n" not in str(exc), exc


def check(result: PeriodResult, given: list[Tournament]) -> None:
    """What every period holds, whatever its input."""
    floor = rules_for(PERIOD).floor
    played = sum(1 for t in given for r in t.results if r.status is Status.PLAYED)
    assert len(result.games) <= played
    for p in result.players:
        assert p.new_rating is None or 0 < p.new_rating <= 4000, p
        if p.status in (PeriodStatus.RATED, PeriodStatus.NEWLY_RATED):
            assert p.new_rating is not None and p.new_rating >= floor, p
        assert p.old_rating is not None or p.games == 0, p
    for note in result.notes:
        assert "|" not in note, note
    for g in result.games:
        assert g.score_h in (0, 50, 100) and 0 <= g.expected_h <= 100, g


@settings(SLOW, max_examples=10 * settings.default.max_examples)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3))
@example(0, 0)  # no tournament has a player
def test_fuzz_the_period(seed, events):
    """A period of drawn tournaments: rated, or refused with the rating layer's one line."""
    rng = random.Random(seed)
    given = [tournament(rng) for _ in range(events)] or [
        Tournament(info=TournamentInfo(name="no players"))]
    try:
        result = run_period([PeriodSource(tournament=t, source=f"t{i}.trf")
                             for i, t in enumerate(given)], period=PERIOD,
                            ratings_list=standings(rng, given), today=TODAY)
    except RatingError as exc:
        refused(exc)
        return
    check(result, given)


@settings(SLOW, max_examples=2 * settings.default.max_examples)
@given(st.sampled_from(READABLE),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 10_000), st.integers(0, 10_000),
                          page_text), max_size=5))
def test_fuzz_period_of_fuzzed_pages(name, ops):
    """Whatever the importers accept, the period accepts."""
    try:
        t = _merged(parse_page(_mutate(own_page(name), ops), source=name))
    except ImporterError:
        return
    consistent(t)
    try:
        result = run_period([PeriodSource(tournament=t, source=name)], period=PERIOD, today=TODAY)
    except RatingError as exc:
        refused(exc)
        return
    check(result, [t])


def _renumbered(no: int) -> str:
    """The small crosstable with player 4 given start number *no* (a label, however large)."""
    html = own_page("art5_crosstable_small.html")
    html = html.replace('<td class="CRc">4</td>', f'<td class="CRc">{no}</td>')
    return re.sub(r"(?<=>)(\s*)4(?=[wb])", lambda m: f"{m.group(1)}{no}", html)


@pytest.mark.parametrize("no", [400_000_000, 2**64, 10**30])
def test_a_start_number_is_a_label(tmp_path: Path, no: int) -> None:
    """A 1.6 KB page whose start number is 400,000,000 (or beyond 64 bits) is rated in a few
    megabytes, as with start number 4."""
    page = tmp_path / "page.html"
    page.write_text(_renumbered(no), encoding="utf-8")
    t = importer.load(page)
    assert no in {p.start_no for p in t.players}
    probe = ("import resource, subprocess, sys; "
             "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
             "print(r.stderr, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "reports", "period",
                          str(page), "--period", "2026-11", "--store", str(tmp_path / "r.sqlite"),
                          "--out", str(tmp_path / "out")], capture_output=True, text=True,
                         check=True)
    code, peak_kb = map(int, out.stdout.split())
    assert code == 0, out.stderr
    assert peak_kb * 1024 < 400 * 2**20, f"{peak_kb / 1024:.0f} MB"
    games = (tmp_path / "out" / "period_games.csv").read_text(encoding="utf-8")
    assert games.count("\n") - 1 == 6  # the same 6 rated games as with start number 4


def test_a_page_without_players_is_nothing_to_rate(run_cli, tmp_path: Path) -> None:
    page = tmp_path / "empty.html"
    html = own_page("art5_crosstable_small.html")
    page.write_text(re.sub(r'<tr class="CRg1">.*?</tr>\n', "", html, flags=re.S), encoding="utf-8")
    res = run_cli("period", str(page), "--period", "2026-11", "--store", str(tmp_path / "r.sqlite"),
                  "--out", str(tmp_path / "out"))
    assert res.code == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "internal error" not in res.stderr and not (tmp_path / "out").exists()
