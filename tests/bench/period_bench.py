"""Benchmark the rating-period engine (rating.period.engine.rate_rows) on a synthetic period.

    python tests/bench/period_bench.py [--rows N] [--quick] [--seed S]

Builds N player-game rows: ~20 % of players with 30+ games (the 700 cap binds), ~5 %
unrated (pooled rows), ~1 % rated 2650+, 70/20/10 % standard/rapid/blitz tournaments, some
unrated opponents.  Times the engine, then a plain per-game Python loop (rating.systems.fide) on a
slice, checks both agree on that slice, and ends with
``rows_per_s=<float> peak_rss_mb=<float> loop_ratio=<float> cpu_rows_per_s=<float>`` (the
last: the engine's rate in CPU seconds, which a busy machine does not slow down).
``--quick`` (1 M rows) exits 1 when rows/s is below 5 M.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from datetime import date

import numpy as np

from rating.period.engine import LISTS, RuleArrays, rate_rows
from rating.systems.fide import excluded_reason, expected_h, period_k
from rating.systems.fide_rules import rules_for

TARGET = 5_000_000.0
START = date(2026, 10, 10)


def build(rows: int, seed: int) -> dict[str, np.ndarray]:
    """The synthetic period: row columns plus per-(player, list) facts."""
    rng = np.random.default_rng(seed)
    heavy = rng.random(max(rows // 16, 10)) < 0.2
    games = np.where(heavy, rng.integers(30, 61, len(heavy)), rng.integers(3, 16, len(heavy)))
    games = games[: np.searchsorted(np.cumsum(games), rows) + 1]
    players = len(games)
    player = np.repeat(np.arange(players, dtype=np.int32), games)[:rows]
    n = len(player)
    tours = max(n // 400, 3)
    t_list = rng.choice(3, tours, p=[0.7, 0.2, 0.1]).astype(np.int32)
    tour = rng.integers(0, tours, n, dtype=np.int32)
    rating = rng.normal(1850, 260, players).clip(1400, 2640).astype(np.int32)
    top = rng.random(players) < 0.01
    rating[top] = rng.integers(2650, 2850, int(top.sum()))
    unrated = rng.random(players) < 0.05
    pl = player * 3 + t_list[tour]
    base = np.full(players * 3, -1, dtype=np.int32)
    for li in range(3):
        base[li::3] = np.where(unrated, -1, rating)
    own = np.where(unrated[player], -1, rating[player]).astype(np.int16)
    opp = (rating[player] + rng.normal(0, 250, n)).clip(1400, 2850).astype(np.int16)
    opp[rng.random(n) < 0.03] = -1
    score = rng.choice(np.array([0, 50, 100], dtype=np.int16), n)
    list_k = np.repeat(np.where(rating >= 2400, 10, np.where(rng.random(players) < 0.3, 40, 20)), 3)
    return {"pl": pl, "tour": tour, "own": own, "opp": opp, "score": score, "t_list": t_list,
            "base": base, "list_k": list_k.astype(np.int32)}


def engine(d: dict[str, np.ndarray]):  # type: ignore[no-untyped-def]
    """Run rate_rows on the data (each row's K before the period cap: the player's list K)."""
    rules = RuleArrays.of([rules_for(START, LISTS[i]) for i in d["t_list"]])
    return rate_rows(d["pl"], d["tour"], d["own"], d["opp"], d["score"], rules=rules,
                     base=d["base"], k=d["list_k"][d["pl"]])


def loop(d: dict[str, np.ndarray], rows: int) -> dict[int, int]:
    """The same period, one game at a time in plain Python (rating.systems.fide); Σ change_h per pl."""
    rules = {li: rules_for(START, rl) for li, rl in enumerate(LISTS)}
    pl, tour, own, opp, score = (d[c][:rows].tolist() for c in ("pl", "tour", "own", "opp", "score"))
    t_list, base, list_k = d["t_list"].tolist(), d["base"].tolist(), d["list_k"].tolist()
    n: dict[int, int] = {}
    rated = []
    for i in range(rows):
        r = rules[t_list[tour[i]]]
        ok = (base[pl[i]] >= 0 and opp[i] >= 0
              and excluded_reason(own[i], opp[i], r) is None)  # RB24 7.3.1
        rated.append(ok)
        if ok:
            n[pl[i]] = n.get(pl[i], 0) + 1
    total: dict[int, int] = {}
    for i in range(rows):
        if rated[i]:
            r = rules[t_list[tour[i]]]
            k = period_k(list_k[pl[i]], n[pl[i]], r)
            total[pl[i]] = total.get(pl[i], 0) + k * (score[i] - expected_h(own[i], opp[i], r))
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--quick", action="store_true", help="1 M rows; exit 1 below 5 M rows/s")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=None,
                    help="best of this many engine runs (default 3; 5 with --quick)")
    args = ap.parse_args(argv)
    rows = 1_000_000 if args.quick else args.rows
    d = build(rows, args.seed)
    rows = len(d["pl"])
    engine(d)  # warm-up
    best = best_cpu = float("inf")
    for _ in range(args.repeat or (5 if args.quick else 3)):
        t0, c0 = time.perf_counter(), time.process_time()
        out = engine(d)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    rate = rows / best
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    sl = min(rows, 100_000)
    cut = {c: d[c][:sl] for c in ("pl", "tour", "own", "opp", "score")}
    small = engine({**d, **cut})
    t0 = time.perf_counter()
    expected = loop(d, sl)
    loop_rate = sl / (time.perf_counter() - t0)
    got = {int(c): int(small.total_h[c]) for c in np.flatnonzero(small.games)}
    if got != expected:
        print("MISMATCH between the engine and the per-game loop", file=sys.stderr)
        return 2
    print(f"rows={rows} players={len(d['base']) // 3} seconds={best:.3f} "
          f"rated_rows={int(out.games.sum())} loop_rows_per_s={loop_rate:.0f}")
    print(f"rows_per_s={rate:.1f} peak_rss_mb={peak:.1f} loop_ratio={rate / loop_rate:.1f} "
          f"cpu_rows_per_s={rows / best_cpu:.1f}")
    if args.quick and rate < TARGET:
        print(f"too slow: {rate:.0f} rows/s < {TARGET:.0f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
