"""``rate_period`` end to end at 1×, 2× and 4× the tournaments, against a bare numpy floor.

    python tests/bench/rate_period_bench.py [--tournaments N] [--players P] [--rounds R]
                                            [--pool N] [--repeat N] [--seed S] [--quick]

Builds 4 × N Swiss tournaments (default N = 500 of 50 players and 10 rounds: 250,000,
500,000 and 1,000,000 player-game rows) with ``federation_bench.py``'s generator, and rates
the first N, 2N and 4N of them with ``rate_period`` (events, identities, K, caps, rounding:
everything from the tournament records, given the previous list as standings; fiderate's
caches emptied before each run, as in a fresh process).  Each size is
timed in turns with its floor, the least numpy work over the same rows: every result's
player, opponent and points read into arrays, the players' ratings looked up, and one
``np.add.at`` of K × (S − E) per player.  Ends with ``key=value`` figures: per size
``rows_<s>x``, ``rows_per_s_<s>x`` and ``floor_ratio_<s>x`` (rate_period's time ÷ the
floor's), then ``rows_per_s`` and ``cpu_rows_per_s`` (the largest size), ``floor_ratio`` and
``cpu_floor_ratio`` (the worst size), ``linear_2x`` and ``linear_4x`` (time per row at 2× and
4× ÷ at 1×: 1.0 is linear) and ``peak_rss_mb``.  ``--quick`` (N = 75, best of 3) is the
speed guard's size.
"""

from __future__ import annotations

import argparse
import functools
import math
import resource
import sys
import time
from collections.abc import Callable, Sequence
from decimal import Decimal
from itertools import chain
from operator import attrgetter

import numpy as np
from federation_bench import PERIOD, federation, tournament

from importer.identity import Remembered
from importer.model import RatingList, Tournament
from rating.period.engine import rate_period
from rating.period.records import Standing

SIZES = (1, 2, 4)
_OURS = {"importer", "rating", "reports"}
_POINTS = {Decimal(1): 1.0, Decimal("0.5"): 0.5, Decimal(0): 0.0}
_START, _OPPONENT, _SCORE, _RATING = (attrgetter(n) for n in ("start_no", "opponent_no",
                                                              "points", "rating"))


def floor(events: Sequence[Tournament]) -> float:
    """The least work over the rows, in seconds: results read into arrays, ratings looked up
    by position, Σ K × (S − E) per player with one ``np.add.at`` (start numbers are 1 … n)."""
    t0 = time.perf_counter()
    results = list(chain.from_iterable(t.results for t in events))
    n = len(results)
    me = np.fromiter(map(_START, results), np.int64, n)
    them = np.fromiter(map(_OPPONENT, results), np.int64, n)
    score = np.fromiter(map(_POINTS.__getitem__, map(_SCORE, results)), np.float64, n)
    sizes = np.fromiter(map(len, (t.players for t in events)), np.int64, len(events))
    first = np.repeat(np.cumsum(sizes) - sizes, np.fromiter(
        map(len, (t.results for t in events)), np.int64, len(events)))
    players = chain.from_iterable(t.players for t in events)
    rating = np.fromiter((r or 0 for r in map(_RATING, players)), np.float64, int(sizes.sum()))
    me += first - 1
    them += first - 1
    expected = 1 / (1 + 10 ** ((rating[them] - rating[me]) / 400))
    total = np.zeros(len(rating))
    np.add.at(total, me, 20 * (score - expected))
    return time.perf_counter() - t0


def timed(run: Callable[[], object], before: Callable[[], object] = lambda: None
          ) -> tuple[float, float]:
    """One run's wall-clock and CPU seconds (*before* it, untimed)."""
    before()
    t0, c0 = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - t0, time.process_time() - c0


def empty_caches() -> None:
    """fiderate's caches emptied, as a fresh process has them (names and FIDE ids are read
    once per distinct one, rules looked up once per date)."""
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in _OURS:
            for f in vars(module).values():
                if isinstance(f, functools._lru_cache_wrapper | Remembered):
                    f.cache_clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tournaments", type=int, default=500, help="the 1× size")
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--pool", type=int, default=40_000)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs of each")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--quick", action="store_true", help="the guard's size: 75 tournaments")
    args = ap.parse_args(argv)
    base = 75 if args.quick else args.tournaments

    rng = np.random.default_rng(args.seed)
    people = federation(args.pool, rng)
    events = [tournament(i, people, args.players, args.rounds, rng)
              for i in range(base * max(SIZES))]
    previous = {(p["fide_id"], RatingList.STANDARD): Standing(rating=p["rating"], k=20)
                for p in people if p["fide_id"] and p["rating"] is not None}
    listed = set(previous)
    best: dict[int, dict[str, float]] = {}
    for size in SIZES:
        some = events[:base * size]
        best[size] = {"wall": math.inf, "cpu": math.inf, "floor": math.inf, "floor_cpu": math.inf,
                      "rows": sum(len(t.results) for t in some)}
        rate_period(some, PERIOD, previous=previous, listed=listed)  # warm-up (imports)
        for _ in range(args.repeat):  # in turns, so that the machine's phases hit both alike
            wall, cpu = timed(lambda some=some: rate_period(some, PERIOD, previous=previous,
                                                            listed=listed), empty_caches)
            floor_wall, floor_cpu = timed(lambda some=some: floor(some))
            for key, value in zip(("wall", "cpu", "floor", "floor_cpu"),
                                  (wall, cpu, floor_wall, floor_cpu), strict=True):
                best[size][key] = min(best[size][key], value)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    per_row = {s: b["wall"] / b["rows"] for s, b in best.items()}
    figures = [f"rows_{s}x={b['rows']:.0f} rows_per_s_{s}x={b['rows'] / b['wall']:.0f} "
               f"floor_ratio_{s}x={b['wall'] / b['floor']:.2f}" for s, b in best.items()]
    top = best[max(SIZES)]
    print(" ".join(figures))
    print(f"rows_per_s={top['rows'] / top['wall']:.0f} "
          f"cpu_rows_per_s={top['rows'] / top['cpu']:.0f} "
          f"floor_ratio={max(b['wall'] / b['floor'] for b in best.values()):.2f} "
          f"cpu_floor_ratio={max(b['cpu'] / b['floor_cpu'] for b in best.values()):.2f} "
          f"linear_2x={per_row[2] / per_row[1]:.2f} linear_4x={per_row[4] / per_row[1]:.2f} "
          f"peak_rss_mb={peak:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
