"""One rules core: the tournament view (the report) and the rating period use the same K and the
same arithmetic.

* The vectorised period arithmetic (``rate_rows``) equals the per-game code of ``rating.systems.fide``
  for every K branch and every rule version (property test, plus an exhaustive grid).
* A single tournament rated as a period on an empty register without a list gives every player
  the K and the unrounded change the report gives (random tournaments, every fixture and every
  real TRF and crosstable).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from itertools import product
from pathlib import Path

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

from importer.errors import ImporterError
from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from importer.sources import load
from rating.numbers import round_half_away
from rating.period.core import LISTS, RuleArrays, default_period, rate_rows
from rating.period.engine import rate_period
from rating.results import TournamentRating
from rating.systems.fide import (
    KSource,
    PlayerFacts,
    cap_mask,
    excluded_reason,
    expected_h,
    period_k,
    player_k,
)
from rating.systems.fide_rules import FideRules, all_rules
from rating.tournament import rate_tournament

RULES = all_rules()
TITLES = ["", "GM", "IM", "FM", "WGM", "CM"]
KS = [10, 15, 20, 25, 30, 40]


# --- the vectorised arithmetic against the per-game code --------------------------------------

facts_st = st.builds(
    PlayerFacts,
    rating=st.none(),  # set from the base below
    games_played=st.one_of(st.none(), st.integers(0, 60)),
    birth_year=st.one_of(st.none(), st.integers(1950, 2020)),
    reached_2400=st.booleans(),
    year=st.sampled_from([2010, 2014, 2023, 2025, 2026]),
    title=st.sampled_from(TITLES),
    junior=st.booleans(),
    published_k=st.one_of(st.none(), st.none(), st.sampled_from(KS)),
    list_k=st.one_of(st.none(), st.none(), st.sampled_from(KS)),
)


def per_game_loop(rows: Sequence[tuple[int, int, int, int]], base: Sequence[int],
                  pl: np.ndarray, t_rules: Sequence[FideRules], k_row: Sequence[int],
                  ) -> tuple[dict[int, int], dict[int, bool], dict[int, int], dict[int, int]]:
    """The plain per-game rules: which rows are rated, the cap per player and tournament, the
    K after K × n ≤ 700, and K × (S − PD) in hundredths."""
    rated = [i for i, (p, t, o, _) in enumerate(rows)  # RB24 7.3.1: the 600-point rule
             if base[p] >= 0 and o >= 0 and excluded_reason(base[p], o, t_rules[t]) is None]
    n: dict[int, int] = {}
    for i in rated:
        n[int(pl[i])] = n.get(int(pl[i]), 0) + 1
    masks: dict[int, bool] = {}
    for key in {(int(pl[i]), rows[i][1]) for i in rated}:
        idx = [i for i in rated if (int(pl[i]), rows[i][1]) == key]
        p, t = rows[idx[0]][0], rows[idx[0]][1]
        masks.update(zip(idx, cap_mask(base[p], [rows[i][2] for i in idx], t_rules[t]), strict=True))
    changes, ks = {}, {}
    for i in rated:
        p, t, o, s = rows[i]
        ks[i] = period_k(k_row[i], n[int(pl[i])], t_rules[t])
        changes[i] = ks[i] * (s - expected_h(base[p], o, t_rules[t], capped=masks[i]))
    return changes, masks, ks, n


def check_rate_rows(rows: list[tuple[int, int, int, int]], base: list[int],
                    facts: list[PlayerFacts], t_rules: list[FideRules]) -> None:
    pl = np.array([3 * p + LISTS.index(t_rules[t].rating_list) for p, t, _, _ in rows])
    k_row = [player_k(t_rules[t], dataclasses.replace(
        facts[p], rating=base[p] if base[p] >= 0 else None), 20)[0] for p, t, _, _ in rows]
    out = rate_rows(pl, np.array([t for _, t, _, _ in rows]),
                    np.array([base[p] for p, _, _, _ in rows], dtype=np.int16),
                    np.array([o for _, _, o, _ in rows], dtype=np.int16),
                    np.array([s for _, _, _, s in rows], dtype=np.int16),
                    rules=RuleArrays.of(t_rules), base=np.repeat(np.array(base), 3),
                    k=np.array(k_row))
    changes, masks, ks, _ = per_game_loop(rows, base, pl, t_rules, k_row)
    totals = np.zeros(3 * len(base), dtype=np.int64)
    for i in range(len(rows)):
        if i in changes:
            assert out.change_h[i] == changes[i]
            assert out.k[i] == ks[i]
            assert bool(out.capped[i]) == masks[i]
            totals[pl[i]] += changes[i]
        else:
            assert out.change_h[i] == 0 and out.k[i] == 0
    assert out.total_h.tolist() == totals.tolist()
    assert out.rounded.tolist() == [round_half_away(int(x)) for x in totals]


@settings(deadline=None)
@given(st.data())
def test_rate_rows_matches_the_per_game_rules(data):
    n_players = data.draw(st.integers(2, 10))
    n_tour = data.draw(st.integers(1, 4))
    t_rules = data.draw(st.lists(st.sampled_from(RULES), min_size=n_tour, max_size=n_tour))
    base = data.draw(st.lists(st.one_of(st.just(-1), st.integers(1000, 2850)),
                              min_size=n_players, max_size=n_players))
    facts = data.draw(st.lists(facts_st, min_size=n_players, max_size=n_players))
    rows = data.draw(st.lists(st.tuples(st.integers(0, n_players - 1), st.integers(0, n_tour - 1),
                                        st.one_of(st.just(-1), st.integers(1000, 2850)),
                                        st.sampled_from([0, 50, 100])), min_size=1, max_size=80))
    for p, t, _, _ in rows:
        if base[p] >= 0:
            f = dataclasses.replace(facts[p], rating=base[p])
            event(f"K from {player_k(t_rules[t], f, 20)[1]}")
    check_rate_rows(rows, base, facts, t_rules)


BRANCHES = {  # one player per K branch; the rating is set per case
    "new (few games)": PlayerFacts(rating=None, games_played=10),
    "junior by birth year": PlayerFacts(rating=None, birth_year=2012, year=2026),
    "junior by category": PlayerFacts(rating=None, junior=True, year=2026),
    "established": PlayerFacts(rating=None, games_played=200, birth_year=1980, year=2026),
    "reached 2400": PlayerFacts(rating=None, reached_2400=True),
    "IM title": PlayerFacts(rating=None, title="IM"),
    "GM title": PlayerFacts(rating=None, title="gm"),
    "list K": PlayerFacts(rating=None, list_k=40),
    "published K": PlayerFacts(rating=None, published_k=25),
    "nothing known": PlayerFacts(rating=None),
}


def test_every_k_branch_under_every_rule_version():
    """An exhaustive grid: every rule version × every K branch × ratings around the thresholds,
    with 20 games for each player so that K 40 meets the 700 cap (40 × 20 > 700)."""
    seen = set()
    for rules, rating in product(RULES, (1500, 2299, 2350, 2450, 2700)):
        facts = list(BRANCHES.values())
        base = [rating] * len(facts) + [2000]
        opp = len(facts)
        rows = [(p, 0, 1600 + 50 * g, (0, 50, 100)[g % 3]) for p in range(len(facts))
                for g in range(20)]
        rows += [(opp, 0, 2000, 50)]
        check_rate_rows(rows, base, [*facts, PlayerFacts(rating=None)], [rules])
        for f in facts:
            k, source = player_k(rules, dataclasses.replace(f, rating=rating), 20)
            seen.add((source, k, period_k(k, 20, rules)))
    sources = {s for s, _, _ in seen}
    assert sources == {KSource.SOURCE, KSource.LIST, KSource.CATEGORY, KSource.DEFAULT}
    assert (KSource.CATEGORY, 40, 35) in seen  # the 700 cap: 40 × 20 → 35
    assert {k for _, k, _ in seen} >= {10, 15, 20, 25, 30, 40}


# --- the report and the period agree ---------------------------------------------------------

def assert_report_and_period_agree(t: Tournament) -> int:
    """Rate *t* both ways; return how many players were compared."""
    report: TournamentRating = rate_tournament(t, k_default=20)
    end = t.info.end_date or t.info.start_date
    assert end is not None
    period = rate_period([t], default_period(end))
    compared = 0
    for pr in report.players:
        if pr.rated_games == 0:
            continue
        p = t.player(pr.start_no)
        assert p is not None
        rows = [x for x in period.players if (x.key == p.fide_id if p.fide_id else x.name == p.name)]
        assert len(rows) == 1, (p.name, len(rows))
        got = rows[0]
        assert got.k == str(pr.k), (p.name, got.k, pr.k)
        assert Decimal(got.change_h) / 100 == pr.change, (p.name, got.change_h, pr.change)
        assert got.games == pr.rated_games
        compared += 1
    return compared


def random_tournament(seed: int, start: date, rl: RatingList) -> Tournament:
    """A Swiss-like event: ratings, titles, birth years, categories and published K at random;
    games, forfeits, games of less than one move and byes; up to 22 rounds (the 700 cap)."""
    rng = random.Random(seed)
    n = rng.randint(4, 16)
    rounds = rng.randint(1, 22)
    players = tuple(Player(
        start_no=i, name=f"Player {i}", fide_id=str(1000 + i),
        rating=rng.choice([None, rng.randint(1000, 2800), rng.randint(1000, 2800)]),
        title=rng.choice(TITLES), birth_year=rng.choice([None, rng.randint(1950, 2020)]),
        category=rng.choice(["", "", "U18", "U12", "S65"]),
        k=rng.choice([None, None, None, rng.choice(KS)]),
    ) for i in range(1, n + 1))
    results: list[RoundResult] = []
    for rd in range(1, rounds + 1):
        order = rng.sample(range(1, n + 1), n)
        for a, b in zip(order[::2], order[1::2], strict=False):
            kind = rng.choice(["played"] * 6 + ["forfeit", "unplayed"])
            s = rng.choice([0.0, 0.5, 1.0]) if kind == "played" else 1.0
            status = {"played": (Status.PLAYED, Status.PLAYED),
                      "forfeit": (Status.FORFEIT_WIN, Status.FORFEIT_LOSS),
                      "unplayed": (Status.UNPLAYED, Status.UNPLAYED)}[kind]
            results += [RoundResult(start_no=a, round=rd, status=status[0], opponent_no=b,
                                    colour=Colour.WHITE, points=s),
                        RoundResult(start_no=b, round=rd, status=status[1], opponent_no=a,
                                    colour=Colour.BLACK, points=1 - s)]
        if n % 2:
            results.append(RoundResult(start_no=order[-1], round=rd, status=Status.BYE, points=1.0))
    info = TournamentInfo(name="Random", start_date=start, end_date=start, rounds=rounds,
                          rating_list=rl)
    return Tournament(info=info, players=players, results=tuple(results))


STARTS = sorted({r.valid_from for r in RULES if r.valid_from.year > 1} | {date(2026, 8, 1)})


@settings(deadline=None, max_examples=max(settings().max_examples // 5, 10))
@given(st.integers(0, 2**32), st.sampled_from(STARTS), st.sampled_from(list(RatingList)))
def test_report_and_period_agree_on_random_tournaments(seed, start, rl):
    assert_report_and_period_agree(random_tournament(seed, start, rl))


def test_the_k_of_an_u18_and_of_an_im_agree():
    """An U18 player rated 2000 has K 40 and an IM rated 2300 K 10, in the report and the period."""
    players = (Player(start_no=1, name="Junior", fide_id="11", rating=2000, category="U18"),
               Player(start_no=2, name="Master", fide_id="12", rating=2300, title="IM"),
               Player(start_no=3, name="Other", fide_id="13", rating=2100),
               Player(start_no=4, name="Fourth", fide_id="14", rating=2050))
    pairs = [(1, 1, 2, 0.5), (1, 3, 4, 1.0), (2, 1, 3, 1.0), (2, 2, 4, 0.0)]
    results = tuple(RoundResult(start_no=me, round=rd, status=Status.PLAYED, opponent_no=opp,
                                colour=col, points=s if col is Colour.WHITE else 1 - s)
                    for rd, a, b, s in pairs
                    for me, opp, col in ((a, b, Colour.WHITE), (b, a, Colour.BLACK)))
    t = Tournament(info=TournamentInfo(name="K", start_date=date(2026, 9, 5),
                                       end_date=date(2026, 9, 6), rating_list=RatingList.STANDARD),
                   players=players, results=results)
    report = rate_tournament(t)
    assert (report.players[0].k, report.players[1].k) == (40, 10)
    period = rate_period([t], date(2026, 10, 1))
    assert [period.player(key).k for key in ("11", "12")] == ["40", "10"]  # type: ignore[union-attr]
    assert assert_report_and_period_agree(t) == 4


def every_source(fixtures_dir: Path, realdata: Path) -> list[Path]:
    own = sorted((fixtures_dir).glob("*.trf")) + sorted((fixtures_dir / "trf").glob("*.trf")) + \
        sorted((fixtures_dir / "period").glob("*.trf"))
    real = sorted((realdata / "trf").glob("*.trf"))
    crosstables = [realdata / "chess-results" / n for n in (
        "british2026_champ_crosstable.html", "en_swiss_crosstable_art5_final_british2026.html",
        "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html",
        "frome2026_standard_crosstable.html", "en_roundrobin_crosstable_art5_ussa2026.html")]
    crosstables += sorted((fixtures_dir / "chess-results").glob("art5_crosstable_small.html"))
    return own + real + crosstables


def test_report_and_period_agree_on_every_fixture_and_real_source(fixtures_dir, realdata):
    compared = tried = 0
    for path in every_source(fixtures_dir, realdata):
        try:
            t = load(path)
        except ImporterError:  # a deliberately broken fixture
            continue
        if t.info.start_date is None:  # the period and the report need the same date
            t = dataclasses.replace(t, info=dataclasses.replace(
                t.info, start_date=date(2026, 8, 1), end_date=date(2026, 8, 9)))
        tried += 1
        compared += assert_report_and_period_agree(t)
    assert tried >= 20 and compared > 1000
