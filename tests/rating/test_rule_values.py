"""Each rule value once, in the versioned rules (issue 19).

* No numeric literal 2400, 3600 or 700 in the code of ``rating/`` and ``reports/`` outside
  ``rating/systems/fide_rules.py`` (an AST check: docstrings, comments and words in strings don't count).
* The period engine's array rounding is the scalar rounding of :mod:`rating.numbers`, and the
  March 2024 adjustment's array form is its scalar form (property tests).
* RB24 7.2.1 (unrated in rapid/blitz → the standard rating) is one function, on every path.
* ``rate_period``'s per-player outcome — statuses, floors, first ratings and their minimum
  games, the 2200 maximum, K × n ≤ 700, the March 2024 adjustment — against the per-game and
  per-player functions of :mod:`rating.systems.fide`, called, never copied (property test).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path

import numpy as np
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from rating.numbers import half_up_div_array, round_half_away, round_half_away_array, round_half_up
from rating.period.engine import rate_period
from rating.period.months import month_add
from rating.period.records import LISTS, PeriodResult, PeriodStatus, Pool, Standing
from rating.systems import registry
from rating.systems.fide import (
    PlayerFacts,
    cap_mask,
    disregarded_first_event,
    excluded_reason,
    expected_h,
    is_junior_category,
    list_rating,
    period_k,
    player_k,
    pooled_initial_rating,
)
from rating.systems.fide_rules import all_rules, list_adjustment, rules_for
from rating.tournament import rate_tournament

ROOT = Path(__file__).resolve().parents[2]
STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ


# --- no rule value outside the rules module ---------------------------------------------------

RULE_VALUES = {2400, 3600, 700}
"""The K-10 threshold, the two hypothetical 1800 opponents, the K × n cap."""
RULES_MODULE = ROOT / "rating" / "systems" / "fide_rules.py"


def rule_literals(path: Path) -> list[tuple[int, object]]:
    """(line, value) of every numeric literal in *path* that is one of the rule values."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex)
                  and node.value in RULE_VALUES)


def _national_rules_modules() -> set[Path]:
    """The modules of the national systems: each holds its federation's own rule values
    (DWZ's 700 + Ri/8 is not FIDE's 700), in its own versioned rules."""
    on = date(2026, 1, 1)
    return {Path(sys.modules[type(registry.build(name, registry.Settings(on=on))).__module__]
                 .__file__ or "") for name in registry.national(on)}


def test_no_rule_value_outside_the_rules_module():
    files = sorted([*(ROOT / "rating").rglob("*.py"), *(ROOT / "reports").rglob("*.py")])
    assert len(files) > 50 and RULES_MODULE in files
    own = _national_rules_modules()
    assert ROOT / "rating" / "systems" / "dwz.py" in own
    assert ROOT / "rating" / "systems" / "fide.py" not in own
    found = [f"{path.relative_to(ROOT)}:{line}: {value}" for path in files
             if path != RULES_MODULE and path not in own for line, value in rule_literals(path)]
    assert not found, "rule values belong in rating/systems/fide_rules.py (FideRules):\n" + "\n".join(found)


def test_the_check_sees_code_and_not_words(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Reached 2400, K x n <= 700, 2 x 1800 = 3600."""\n'
                      "# 2400 in a comment\n"
                      "words = f'K × games ≤ {cap} (700 in words)'\n"
                      "top = {2400: 10}\n"
                      "cap = -700.0\n"
                      "ok = rating >= rules.top_threshold\n", encoding="utf-8")
    assert rule_literals(sample) == [(4, 2400), (5, 700.0)]
    assert rule_literals(RULES_MODULE)  # where they do belong


def test_the_readme_rules_table_says_what_the_rules_hold():
    """Every number in a row of README's "Rules implemented" table is a value of the rule
    version of that date, and every version has its row."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| tournaments starting |"):].split("\n\n")[0].splitlines()
    header, rows = table[0], table[2:]
    dated = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        day = date.fromisoformat(re.search(r"\d{4}-\d{2}-\d{2}", cells[0]).group())  # type: ignore[union-attr]
        if cells[0].startswith("before"):
            day = date(1, 1, 1)
        rl = RAPID if "rapid" in cells[0] else STD
        rules = rules_for(day, rl)
        held = {v for v in (getattr(rules, f.name) for f in dataclass_fields(rules))
                if isinstance(v, int) and not isinstance(v, bool)}
        said = {int(n) for n in re.findall(r"\d+", " ".join(cells[1:]))}
        assert said <= held, (row, said - held)
        dated.append(rules)
    assert {r.valid_from for r in dated} == {r.valid_from for r in all_rules()}
    assert f"{rules_for(date(2026, 11, 1)).top_threshold}+" in header


# --- the one rounding rule, on scalars and arrays ---------------------------------------------

@given(st.lists(st.integers(-(10**12), 10**12), max_size=50))
def test_array_rounding_is_the_scalar_rounding(values):
    h = np.array(values, dtype=np.int64)
    assert round_half_away_array(h).tolist() == [round_half_away(v) for v in values]
    assert round_half_away_array(np.array([-250, -150, -50, 50, 150, 250])).tolist() == [
        -3, -2, -1, 1, 2, 3]  # half away from zero (R24 8.3.4)


@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 10**6)), min_size=1,
                max_size=50))
def test_array_half_up_division_is_the_scalar_one(pairs):
    num = np.array([n for n, _ in pairs], dtype=np.int64)
    den = np.array([d for _, d in pairs], dtype=np.int64)
    assert half_up_div_array(num, den).tolist() == [round_half_up(Fraction(n, d)) for n, d in pairs]


# --- the March 2024 adjustment -----------------------------------------------------------------

MARCH_2024 = date(2024, 3, 1)


def test_the_march_2024_adjustment_is_held_by_the_rules_of_that_list():
    adj = list_adjustment(MARCH_2024)
    assert adj is not None and adj.words == "0.4 × (2000 − R)"
    # Spec §7: 1000 → 1400, 1500 → 1700, 1600 → 1760, 1950 → 1970; 2000 and more unchanged;
    # 1812 (1800 + 12 in the period) → + round(75.2) = 75.
    assert [r + adj.amount(r) for r in (1000, 1500, 1600, 1950, 2000, 2400, 1812)] == [
        1400, 1700, 1760, 1970, 2000, 2400, 1887]
    assert list_adjustment(MARCH_2024, RAPID) == list_adjustment(MARCH_2024, BLITZ) == adj  # NOR24
    for month in (date(2024, 2, 1), date(2024, 4, 1), date(2024, 12, 1), date(2026, 11, 1)):
        assert all(list_adjustment(month, rl) is None for rl in LISTS)
    assert sum(r.adjustment is not None for r in all_rules()) == 3  # the 2024-03 version of each list


@given(st.lists(st.integers(0, 3000), max_size=60))
def test_the_adjustment_of_an_array_is_the_scalar_one(ratings):
    adj = list_adjustment(MARCH_2024)
    assert adj is not None
    got = adj.amounts(np.array(ratings, dtype=np.int64)).tolist()
    assert got == [adj.amount(r) for r in ratings]
    assert all(a >= 0 for a in got)


def two_player_event(start: date, a: tuple[str, int | None], b: tuple[str, int | None],
                     games: list[float], rl: RatingList = STD) -> Tournament:
    players = (Player(start_no=1, name=f"P{a[0]}", fide_id=a[0], rating=a[1]),
               Player(start_no=2, name=f"P{b[0]}", fide_id=b[0], rating=b[1]))
    results: list[RoundResult] = []
    for rd, s in enumerate(games, 1):
        results += [RoundResult(start_no=1, round=rd, status=Status.PLAYED, opponent_no=2,
                                colour=Colour.WHITE, points=s),
                    RoundResult(start_no=2, round=rd, status=Status.PLAYED, opponent_no=1,
                                colour=Colour.BLACK, points=1 - s)]
    info = TournamentInfo(name=f"{a[0]} v {b[0]}", start_date=start, end_date=start,
                          rating_list=rl)
    return Tournament(info=info, players=players, results=tuple(results))


def test_rate_period_applies_the_march_2024_adjustment_after_the_games():
    # A February event (the 2022 rules): 1800 (K 20) draws 1692 twice: D 108 → .65, −0.30 × 20.
    t = two_player_event(date(2024, 2, 5), ("1", 1800), ("2", 1692), [0.5, 0.5])
    previous = {("1", STD): Standing(rating=1800, k=20), ("2", STD): Standing(rating=1692, k=20)}
    r = rate_period([t], MARCH_2024, previous=previous)
    one, two = r.player("1"), r.player("2")
    assert one is not None and two is not None
    assert (one.change_h, one.rounded_change) == (-600, -6)
    assert one.new_rating == 1794 + round_half_away(40 * (2000 - 1794))  # 1794 + 82
    assert two.new_rating == 1698 + round_half_away(40 * (2000 - 1698))  # 1698 + 121 (120.8)
    assert "2024-03: FIDE's one-time adjustment 0.4 × (2000 − R) is applied." in r.notes
    april = rate_period([t], date(2024, 4, 1), previous=previous, assigned={"t1"}, keys=["t1"])
    assert april.player("1").new_rating == 1794  # type: ignore[union-attr]
    assert not any("adjustment" in n for n in april.notes)


# --- RB24 7.2.1: one function, every path ------------------------------------------------------

def test_list_rating_is_rb24_7_2_1():
    standard = rules_for(date(2026, 5, 1))
    rapid, blitz = rules_for(date(2026, 5, 1), RAPID), rules_for(date(2026, 5, 1), BLITZ)
    assert list_rating(rapid, None, 1900) == list_rating(blitz, None, 1900) == 1900
    assert list_rating(rapid, 1750, 1900) == 1750  # rated in rapid: the rapid rating
    assert list_rating(rapid, None, None) is None
    assert list_rating(standard, None, 1900) is None  # standard has no such rule
    assert all(r.unrated_uses_standard is (r.rating_list is not STD) for r in all_rules())


def test_rb24_7_2_1_on_every_period_path():
    """The previous list (the base), a source's unrated player, and the register's older list."""
    previous = {("1", RAPID): Standing(rating=2000, k=20), ("2", STD): Standing(rating=1900, k=20)}
    # 1. The source prints both ratings: player 2's rapid base is the standard rating.
    printed = two_player_event(date(2026, 10, 5), ("1", 2000), ("2", 1900), [1], RAPID)
    # 2. The source prints player 2 unrated: the standard rating of the list in force.
    unrated = two_player_event(date(2026, 10, 5), ("1", 2000), ("2", None), [1], RAPID)
    # 3. The source prints no ratings: the register's list of the start month.
    bare = two_player_event(date(2026, 9, 5), ("1", None), ("2", None), [1], RAPID)
    older = {date(2026, 9, 1): {("1", RAPID): 2000, ("2", STD): 1900}}
    for t, kwargs in ((printed, {}), (unrated, {}), (bare, {"in_force": older})):
        r = rate_period([t], date(2026, 11, 1), previous=previous, keys=["t"], assigned={"t"},
                        **kwargs)  # type: ignore[arg-type]
        two = r.player("2", RAPID)
        assert two is not None and two.old_rating == 1900 and two.games == 1, t.info
        assert [g.opponent_rating for g in r.games_of("1")] == [1900]
        assert two.change_h == 20 * (0 - 36)  # D 100 → .36 (K 20: the list's)


def test_a_single_tournament_takes_the_rating_its_source_prints():
    """The tournament view cannot know a standard rating the source does not print (one FIDE
    rating per player): a player printed unrated in a rapid event stays unrated there."""
    t = two_player_event(date(2026, 10, 5), ("1", 2000), ("2", None), [1], RAPID)
    tr = rate_tournament(t)
    one, two = tr.player(1), tr.player(2)
    assert one is not None and two is not None
    assert two.rating is None and one.rated_games == 0
    printed = rate_tournament(two_player_event(date(2026, 10, 5), ("1", 2000), ("2", 1900), [1],
                                               RAPID))
    assert printed.player(1).rated_games == 1  # type: ignore[union-attr]


# --- rate_period against the per-player functions ----------------------------------------------

PERIODS = [date(2014, 9, 1), date(2023, 6, 1), MARCH_2024, date(2025, 1, 1), date(2025, 12, 1),
           date(2026, 11, 1)]
"""The 2014 rules (floor 1000, R22 first ratings); the 2022 rules; March 2024 (February events
under the 2022 rules on the first list of R24, and the adjustment); the rapid 600-point rule;
the 2650 exemption."""
THRESHOLDS = [1399, 1400, 1410, 1990, 2199, 2299, 2300, 2399, 2400, 2649, 2650, 2700]


@dataclass
class Period:
    """A drawn period: its tournaments and what the previous list and the register know."""

    period: date
    tournaments: list[Tournament]
    previous: dict[tuple[str, RatingList], Standing]
    pools: dict[tuple[str, RatingList], Pool]
    birth: dict[str, int | None] = field(default_factory=dict)


def draw_period(rng: random.Random) -> Period:
    period = rng.choice(PERIODS)
    ids = [str(100 + i) for i in range(rng.randint(3, 10))]

    def rating() -> int | None:
        if rng.random() < 0.25:
            return None
        return rng.choice(THRESHOLDS) if rng.random() < 0.3 else rng.randint(1000, 2800)

    birth = {fid: rng.choice([None, None, rng.randint(1950, 2018)]) for fid in ids}
    previous = {(fid, rl): Standing(
        rating=rating(), k=rng.choice([None, None, 10, 20, 40]),
        games_total=rng.choice([None, rng.randint(0, 60)]), reached_2400=rng.random() < 0.1,
        birth_year=birth[fid], inactive=rng.random() < 0.2) for fid in ids for rl in LISTS}
    pools = {}
    for key, s in previous.items():
        if s.rating is None and rng.random() < 0.5:
            games = rng.randint(0, 6)
            pools[key] = Pool(games=games, opponents_sum=sum(rng.randint(1400, 2500)
                                                             for _ in range(games)),
                              score_h=50 * rng.randint(0, 2 * games),
                              events=rng.randint(1, 2) if games else rng.randint(0, 1))
    tournaments = []
    for ti in range(rng.randint(1, 3)):
        rl = rng.choice([STD, STD, RAPID, BLITZ])
        start = month_add(period, -1) + timedelta(days=rng.randint(0, 20))
        chosen = rng.sample(ids, rng.randint(2, len(ids)))
        players = tuple(Player(
            start_no=no, name=f"P{fid}", fide_id=fid, rating=previous[(fid, rl)].rating,
            birth_year=birth[fid], title=rng.choice(["", "", "GM", "IM", "FM"]),
            category=rng.choice(["", "", "U18", "S65"]), k=rng.choice([None] * 4 + [10, 20, 40]))
            for no, fid in enumerate(chosen, 1))
        results: list[RoundResult] = []
        for rd in range(1, rng.choice([rng.randint(1, 9), rng.randint(12, 24)]) + 1):
            order = rng.sample(range(1, len(players) + 1), len(players))
            for a, b in zip(order[::2], order[1::2], strict=False):
                status = rng.choice([Status.PLAYED] * 8 + [Status.FORFEIT_WIN, Status.UNPLAYED])
                s = rng.choice([0.0, 0.5, 1.0]) if status is Status.PLAYED else 1.0
                other = Status.FORFEIT_LOSS if status is Status.FORFEIT_WIN else status
                results += [RoundResult(start_no=a, round=rd, status=status, opponent_no=b,
                                        colour=Colour.WHITE, points=s),
                            RoundResult(start_no=b, round=rd, status=other, opponent_no=a,
                                        colour=Colour.BLACK, points=1 - s)]
        info = TournamentInfo(id=str(1000 + ti), name=f"Event {ti}", start_date=start,
                              end_date=start, rating_list=rl)  # events of their own
        tournaments.append(Tournament(info=info, players=players, results=tuple(results)))
    return Period(period, tournaments, previous, pools, birth)


@dataclass
class Expected:
    """One player's outcome on one list, from the functions of rating.systems.fide."""

    old_rating: int | None
    games: int = 0
    change_h: int = 0
    ks: set[int] = field(default_factory=set)
    pool_games: int = 0
    new_rating: int | None = None
    status: PeriodStatus = PeriodStatus.UNRATED
    initial_rating: int | None = None
    k_capped: bool = False
    """K × n > 700 reduced the K (R24 8.3.3)."""


def expected_outcome(d: Period) -> dict[tuple[str, RatingList], Expected]:
    """What the regulations give each player shown in the period, game by game."""
    period_rules = rules_for(d.period)  # the new list's floor and first-rating rules

    def rated_with(fid: str, rl: RatingList) -> int | None:  # RB24 7.2.1 on the previous list
        return list_rating(rules_for(d.period, rl), d.previous[(fid, rl)].rating,
                           d.previous[(fid, STD)].rating)

    rated: dict[tuple[str, RatingList], list[tuple[int, int, int]]] = {}  # (t, opponent, score)
    pooled: dict[tuple[str, RatingList], list[tuple[int, int, int]]] = {}
    events: dict[tuple[str, RatingList], dict[int, int]] = {}  # t → score in it
    for ti, t in enumerate(d.tournaments):
        rl = t.info.rating_list
        assert rl is not None and t.info.start_date is not None
        rules = rules_for(t.info.start_date, rl)
        fid = {p.start_no: p.fide_id for p in t.players}
        for r in t.results:
            if r.status is not Status.PLAYED or r.opponent_no is None:
                continue
            me, score = (fid[r.start_no], rl), int(100 * (r.points or 0))
            own, opp = rated_with(fid[r.start_no], rl), rated_with(fid[r.opponent_no], rl)
            events.setdefault(me, {}).setdefault(ti, 0)
            events[me][ti] += score
            if own is not None and opp is not None and excluded_reason(own, opp, rules) is None:
                rated.setdefault(me, []).append((ti, opp, score))
            elif own is None and opp is not None:
                pooled.setdefault(me, []).append((ti, opp, score))

    out: dict[tuple[str, RatingList], Expected] = {}
    starts = [(t.info.start_date, ti) for ti, t in enumerate(d.tournaments)]
    for (fid, rl), played in events.items():
        st_ = d.previous[(fid, rl)]
        base = rated_with(fid, rl)
        e = out[(fid, rl)] = Expected(old_rating=base)
        if base is None:  # a first rating from the pool (R24 7.1.4, 8.2)
            prior = d.pools.get((fid, rl), Pool())
            first = min(starts[ti] for ti in played)[1]
            kept = [(ti, o, s) for ti, o, s in pooled.get((fid, rl), [])
                    if not disregarded_first_event(prior.events, ti == first, played[first])]
            ru = pooled_initial_rating(prior.games + len(kept),
                                       prior.opponents_sum + sum(o for _, o, _ in kept),
                                       prior.score_h + sum(s for _, _, s in kept), period_rules)
            e.pool_games, e.initial_rating = ru.games, ru.value
            e.status = PeriodStatus.NEWLY_RATED if ru.published else PeriodStatus.UNRATED
            e.new_rating = ru.value if ru.published else None
            continue
        games = rated.get((fid, rl), [])
        e.games = len(games)
        for ti, t in enumerate(d.tournaments):
            mine = [(o, s) for tj, o, s in games if tj == ti]
            if not mine:
                continue
            start = t.info.start_date
            assert start is not None
            rules = rules_for(start, rl)
            p = next(p for p in t.players if p.fide_id == fid)
            facts = PlayerFacts(
                rating=base, games_played=st_.games_total, birth_year=d.birth[fid],
                reached_2400=st_.reached_2400 or rules_for(d.period, rl).reaches_top(base),
                year=start.year, title=p.title, junior=is_junior_category(p.category),
                published_k=p.k, list_k=st_.k or None)
            k_player = player_k(rules, facts, 20)[0]
            k = period_k(k_player, e.games, rules)  # R24 8.3.3
            e.ks.add(k)
            e.k_capped |= k != k_player
            mask = cap_mask(base, [o for o, _ in mine], rules)
            e.change_h += sum(k * (s - expected_h(base, o, rules, capped=m))
                              for (o, s), m in zip(mine, mask, strict=True))
        new = base + round_half_away(e.change_h)  # R24 8.3.4
        adj = list_adjustment(d.period, rl)
        if adj is not None:
            new += adj.amount(new)
        if e.games == 0 and st_.inactive:
            e.status = PeriodStatus.INACTIVE
        elif new < period_rules.floor:
            e.status = PeriodStatus.DROPPED_BELOW_FLOOR
        else:
            e.status = PeriodStatus.RATED
        e.new_rating = None if new < period_rules.floor else new
    return out


def check_invariants(result: PeriodResult) -> None:
    """What the rules promise whatever the games: the floor, the first-rating conditions and
    maximum, and K × n within the cap."""
    rules = rules_for(result.period)
    for p in result.players:
        if p.status in (PeriodStatus.RATED, PeriodStatus.NEWLY_RATED):
            assert p.new_rating is not None and p.new_rating >= rules.floor, p
        if p.status is PeriodStatus.NEWLY_RATED:
            assert p.pool_games >= rules.initial_min_games, p
            assert rules.initial_max is None or p.new_rating <= rules.initial_max, p  # type: ignore[operator]
        if p.status is PeriodStatus.DROPPED_BELOW_FLOOR:
            assert p.new_rating is None and p.old_rating is not None, p
    n = {(g.key, g.list): 0 for g in result.games}
    for g in result.games:
        n[(g.key, g.list)] += 1
    for g, t in ((g, next(s for s in result.tournaments if s.key == g.tournament))
                 for g in result.games):
        cap = t.rules.period_cap
        assert cap is None or g.k * n[(g.key, g.list)] <= cap or g.k == 0, g


@settings(deadline=None)
@given(st.integers(0, 2**32 - 1))
@example(seed=3845363)  # two events of the same three players, once taken for one
def test_rate_period_per_player_outcome_is_the_per_player_rules(seed):
    d = draw_period(random.Random(seed))
    result = rate_period(d.tournaments, d.period, previous=d.previous, listed=set(d.previous),
                         pools=d.pools)
    want = expected_outcome(d)
    got = {(p.key, p.list): p for p in result.players}
    assert got.keys() == want.keys()
    for key, e in want.items():
        p = got[key]
        event(p.status.value)
        if e.k_capped:
            event("K × n over the cap")
        assert (p.old_rating, p.games, p.change_h, set(p.ks)) == (
            e.old_rating, e.games, e.change_h, e.ks), (key, p)
        assert p.rounded_change == round_half_away(e.change_h)
        assert (p.status, p.new_rating, p.pool_games, p.initial_rating) == (
            e.status, e.new_rating, e.pool_games, e.initial_rating), (key, p)
    check_invariants(result)
