"""A federation's month, end to end: synthetic tournaments → run_period → the period files.

    python tests/bench/federation_bench.py [--tournaments N] [--players P] [--rounds R]
                                          [--pool N] [--out DIR] [--no-pages] [--reports]
                                          [--repeat N] [--seed S]

Builds N Swiss tournaments (default 2,000 of 50 players and 10 rounds: 500,000 games, a
million player-game rows) from a federation of ``--pool`` players (40,000; 3 % unrated, 2 %
without a FIDE id), and the previous FIDE list holding every rated player.  Times, in one
run: ``run_period`` (identities, the list, the engine, the records); the month's files as
``fiderate period`` writes them (``write_period_files``: the two CSVs, ``period.html`` and
each player's page; ``--reports`` adds the tournaments' own reports), and the CSVs alone;
as a bare baseline a loop that only reads every result of every tournament; and
``rate_period`` alone on the same tournaments, given the previous list as standings.  Ends
with ``key=value`` figures: ``rows``, ``rate_period_rows_per_s``, ``rows_per_s``
(player-game rows through run_period), ``period_s``, ``files_s`` and ``files_cpu_s``,
``csv_s``, ``month_s`` (run_period and the files: what the rating officer waits for, less
reading the files), ``baseline_s``, ``peak_rss_mb`` and ``load_average``.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import sys
import tempfile
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

import numpy as np

from importer.formats.fidelist import FideList, ListEntry
from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.period.records import Standing

PERIOD = date(2026, 11, 1)
WIN, DRAW, LOSS = Decimal(1), Decimal("0.5"), Decimal(0)


def federation(pool: int, rng: np.random.Generator) -> list[dict[str, object]]:
    """The federation's players: id, name, rating (None: unrated), birth year."""
    ratings = rng.normal(1750, 280, pool).clip(1400, 2750).astype(int)
    unrated = rng.random(pool) < 0.03
    no_id = rng.random(pool) < 0.02
    years = rng.integers(1940, 2016, pool)
    return [{"fide_id": "" if no_id[i] else str(30_000_000 + i), "name": f"Player{i:06d}, Anna",
             "rating": None if unrated[i] else int(ratings[i]), "birth_year": int(years[i])}
            for i in range(pool)]


def tournament(n: int, people: list[dict[str, object]], players: int, rounds: int,
               rng: np.random.Generator) -> Tournament:
    """One Swiss-like event: random pairings each round, results by rating."""
    chosen = rng.choice(len(people), players, replace=False)
    entrants = [people[i] for i in chosen]
    entrants.sort(key=lambda p: -(p["rating"] or 0))  # type: ignore[operator]
    plist = tuple(Player(start_no=i + 1, name=str(p["name"]), federation="ENG",
                         fide_id=str(p["fide_id"]), rating=p["rating"],  # type: ignore[arg-type]
                         birth_year=p["birth_year"])  # type: ignore[arg-type]
                  for i, p in enumerate(entrants))
    results: list[RoundResult] = []
    for rd in range(1, rounds + 1):
        order = rng.permutation(players) + 1
        outcome = rng.choice(3, players // 2)
        for (w, b), o in zip(order[: players // 2 * 2].reshape(-1, 2).tolist(), outcome.tolist(),
                             strict=True):
            pw, pb = (WIN, LOSS) if o == 0 else (DRAW, DRAW) if o == 1 else (LOSS, WIN)
            results.append(RoundResult(start_no=w, round=rd, status=Status.PLAYED, opponent_no=b,
                                       colour=Colour.WHITE, points=pw))
            results.append(RoundResult(start_no=b, round=rd, status=Status.PLAYED, opponent_no=w,
                                       colour=Colour.BLACK, points=pb))
    day = date(2026, 10, 1 + n % 28)
    info = TournamentInfo(id=str(2_000_000 + n), name=f"Event {n}", start_date=day, end_date=day,
                          rounds=rounds, rating_list=RatingList.STANDARD, federation="ENG")
    return Tournament(info=info, players=plist, results=tuple(results))


def previous_list(people: list[dict[str, object]]) -> FideList:
    """October's list: every rated player with an id."""
    entries = [ListEntry(fide_id=str(p["fide_id"]), name=str(p["name"]), federation="ENG", sex="",
                         title="", birth_year=p["birth_year"], flags="",  # type: ignore[arg-type]
                         std_rating=p["rating"], std_k=20)  # type: ignore[arg-type]
               for p in people if p["fide_id"] and p["rating"] is not None]
    return FideList.of(entries, lists=("standard",), list_date=date(2026, 10, 1),
                       source="synthetic October list")


def baseline(tournaments: list[Tournament]) -> tuple[float, int]:
    """Read every result of every tournament once (the least any engine must do)."""
    t0 = time.perf_counter()
    n = 0
    for t in tournaments:
        for r in t.results:
            if r.status is Status.PLAYED and r.points is not None:
                n += 1
    return time.perf_counter() - t0, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tournaments", type=int, default=2000)
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--pool", type=int, default=40_000)
    ap.add_argument("--out", help="write the period pages here (default: a temporary folder)")
    ap.add_argument("--no-pages", action="store_true", help="time run_period only")
    ap.add_argument("--reports", action="store_true",
                    help="also time every tournament's own report (the period's folders)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=1, help="best of this many rate_period runs")
    args = ap.parse_args(argv)

    from rating.period.engine import rate_period
    from rating.period.run import PeriodSource, run_period

    rng = np.random.default_rng(args.seed)
    people = federation(args.pool, rng)
    t0 = time.perf_counter()
    events = [tournament(i, people, args.players, args.rounds, rng) for i in range(args.tournaments)]
    build_s = time.perf_counter() - t0
    fide_list = previous_list(people)
    base_s, rows = baseline(events)
    print(f"built tournaments={len(events)} rows={rows} in {build_s:.1f}s", file=sys.stderr)

    previous = {(p["fide_id"], RatingList.STANDARD): Standing(rating=p["rating"], k=20)
                for p in people if p["fide_id"] and p["rating"] is not None}
    engine_s = engine_cpu = math.inf
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        rate_period(events, PERIOD, previous=previous, listed=set(previous))
        engine_s = min(engine_s, time.perf_counter() - t0)
        engine_cpu = min(engine_cpu, time.process_time() - c0)
    print(f"rate_period {engine_s:.2f}s (best of {args.repeat})", file=sys.stderr)
    t0 = time.perf_counter()
    result = run_period([PeriodSource(tournament=t, source=t.info.name) for t in events],
                        period=PERIOD, ratings_list=fide_list, today=PERIOD)
    period_s = time.perf_counter() - t0
    print(f"run_period {period_s:.2f}s: {len(result.players)} players, {len(result.games)} games",
          file=sys.stderr)
    pages_s = pages_cpu = csv_s = 0.0
    if not args.no_pages:
        from reports.period.pages import write_period_files

        with tempfile.TemporaryDirectory() as tmp:
            out = Path(args.out or tmp)
            t0 = time.perf_counter()
            write_period_files(result, out / "csv", html_summary=False, ratings_list=fide_list)
            csv_s = time.perf_counter() - t0
            t0, c0 = time.perf_counter(), time.process_time()
            written = write_period_files(result, out / "month", ratings_list=fide_list,
                                         reports=args.reports)
            pages_s, pages_cpu = time.perf_counter() - t0, time.process_time() - c0
            biggest = max(p.stat().st_size for p in written)
            total = sum(p.stat().st_size for p in written)
            print(f"files {pages_s:.2f}s ({pages_cpu:.2f}s CPU): {len(written)} files, "
                  f"{total / 1e6:.0f} MB, largest {biggest / 1e6:.2f} MB; the CSVs alone "
                  f"{csv_s:.2f}s", file=sys.stderr)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"rows={rows} rate_period_rows_per_s={rows / engine_s:.0f} "
          f"cpu_rate_period_rows_per_s={rows / engine_cpu:.0f} "
          f"rows_per_s={rows / period_s:.0f} period_s={period_s:.2f} "
          f"files_s={pages_s:.2f} files_cpu_s={pages_cpu:.2f} csv_s={csv_s:.2f} "
          f"month_s={period_s + pages_s:.2f} baseline_s={base_s:.2f} peak_rss_mb={peak:.0f} "
          f"children_peak_rss_mb={children:.0f} load_average={os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
