"""Benchmark the HTML pages of ``fiderate period`` on a synthetic month.

    python tests/bench/period_pages_bench.py [--tournaments 39] [--players 300] [--people N]
                                             [--rounds 9] [--reports] [--write] [--seed S]

Builds T Swiss-like tournaments of P players each, drawn from a pool of people (default:
0.6 × T × P, so many play several events; ~5 % unrated, ~2 % without a FIDE id, matched by
name), rates them as one list month with the engine (``rating.period.engine.rate_period``), then
times rendering the period's own pages (``period.html`` and one calculation page per player
and list: :func:`reports.period.pages.period_pages`) and, beside it in the same run, a bare
baseline: as many trivially small autoescaped Jinja pages.  ``--reports`` also times every
tournament's report (``render_period_files`` in full), ``--write`` ``write_period_files`` as
``fiderate period --out`` runs it.  Prints ``key=value`` figures:

    tournaments=39 players=300 people=7020 entries=... games=... engine_s=...
    pages=... pages_s=... baseline_s=... ratio=... per_player_ms=... largest_kb=... index_kb=...

Not part of the default test run (tests/bench is excluded).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import date, timedelta

from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)

PERIOD = date(2026, 11, 1)


def people(n: int, seed: int) -> list[Player]:
    """The month's players (start numbers are set per tournament)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        no_id = rng.random() < 0.02
        out.append(Player(start_no=0, name=f"Player {i:05d}, Synthetic",
                          federation=rng.choice(["ENG", "GER", "FRA", "ESP"]),
                          fide_id="" if no_id else str(20_000_000 + i),
                          birth_year=rng.choice([None, 1965, 1990, 2011]),
                          rating=None if rng.random() < 0.05 else
                          max(1400, min(2790, int(rng.gauss(1850, 260))))))
    return out


def tournament(index: int, pool: list[Player], size: int, rounds: int,
               rng: random.Random) -> Tournament:
    """One Swiss-like event of *size* players drawn from *pool*: random pairings, a bye for
    an odd field."""
    chosen = sorted(rng.sample(range(len(pool)), size),
                    key=lambda i: -(pool[i].rating or 0))
    players = tuple(Player(start_no=no, name=pool[i].name, federation=pool[i].federation,
                           fide_id=pool[i].fide_id, birth_year=pool[i].birth_year,
                           rating=pool[i].rating)
                    for no, i in enumerate(chosen, start=1))
    results: list[RoundResult] = []
    for rnd in range(1, rounds + 1):
        order = list(range(1, size + 1))
        rng.shuffle(order)
        if len(order) % 2:
            results.append(RoundResult(start_no=order.pop(), round=rnd, status=Status.BYE,
                                       points=1.0))
        for w, b in zip(order[::2], order[1::2], strict=True):
            pw = rng.choice([1.0, 0.5, 0.0])
            results += [RoundResult(start_no=w, round=rnd, status=Status.PLAYED, opponent_no=b,
                                    colour=Colour.WHITE, points=pw),
                        RoundResult(start_no=b, round=rnd, status=Status.PLAYED, opponent_no=w,
                                    colour=Colour.BLACK, points=1.0 - pw)]
    start = date(2026, 10, 1) + timedelta(days=index % 25)
    info = TournamentInfo(name=f"Synthetic Open {index + 1}", start_date=start,
                          end_date=start + timedelta(days=4), rounds=rounds,
                          rating_list=RatingList.STANDARD, federation="ENG",
                          time_control="90 min + 30 s")
    return Tournament(info=info, players=players, results=tuple(results))


def month(tournaments: int, players: int, pool_size: int, rounds: int, seed: int
          ) -> list[Tournament]:
    rng = random.Random(seed)
    pool = people(pool_size, seed)
    return [tournament(i, pool, min(players, pool_size), rounds, rng) for i in range(tournaments)]


def baseline(pages: int) -> float:
    """Seconds to render *pages* trivially small autoescaped Jinja pages (a name and a number
    each): what any page costs at the least."""
    from jinja2 import DictLoader, Environment

    env = Environment(loader=DictLoader({"p.html": "<!DOCTYPE html><title>{{ name }}</title>"
                                                   "<h1>{{ name }}</h1><p>{{ n }}</p>\n"}),
                      autoescape=True)
    page = env.get_template("p.html")
    t0 = time.perf_counter()
    for i in range(pages):
        page.render(name=f"Player {i}, <Synthetic>", n=i)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tournaments", type=int, default=39)
    ap.add_argument("--players", type=int, default=300, help="players per tournament")
    ap.add_argument("--people", type=int, default=None,
                    help="distinct players in the month (default 0.6 × tournaments × players)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--reports", action="store_true",
                    help="also time every tournament's report (render_period_files in full)")
    ap.add_argument("--write", action="store_true",
                    help="also time write_period_files into a temporary folder (reports included)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    pool_size = args.people or max(int(0.6 * args.tournaments * args.players), args.players)

    from rating.period.engine import rate_period
    from reports.period.pages import period_pages, render_period_files
    from reports.render.html import environment

    events = month(args.tournaments, args.players, pool_size, args.rounds, args.seed)
    environment().get_template("period.html")  # compiled before the clock starts
    t0 = time.perf_counter()
    result = rate_period(events, PERIOD, keys=[f"t{i + 1}" for i in range(len(events))])
    engine_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    pages = period_pages(result)
    pages_s = time.perf_counter() - t0
    base_s = baseline(len(pages))
    sizes = {name: len(text.encode("utf-8")) for name, text in pages.items()}
    figures = {
        "tournaments": args.tournaments, "players": args.players, "people": pool_size,
        "entries": len(result.players), "games": len(result.games),
        "engine_s": f"{engine_s:.2f}",
    }
    print(" ".join(f"{k}={v}" for k, v in figures.items()))
    line = {
        "pages": len(pages), "pages_s": f"{pages_s:.2f}", "baseline_s": f"{base_s:.3f}",
        "ratio": f"{pages_s / base_s:.1f}" if base_s else "inf",
        "per_player_ms": f"{1000 * pages_s / max(len(result.players), 1):.3f}",
        "largest_kb": f"{max(sizes.values()) / 1024:.0f}",
        "index_kb": f"{sizes['period.html'] / 1024:.0f}",
        "total_mb": f"{sum(sizes.values()) / 2**20:.1f}",
    }
    if args.reports:
        t0 = time.perf_counter()
        files = render_period_files(result)
        line["with_reports_s"] = f"{time.perf_counter() - t0:.2f}"
        line["files"] = len(files)
    if args.write:
        import tempfile

        from importer.writing.atomic import atomic_dir
        from reports.period.pages import write_period_files

        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            with atomic_dir(f"{tmp}/out") as folder:
                written = write_period_files(result, folder)
            line["write_s"] = f"{time.perf_counter() - t0:.2f}"
            line["written"] = len(written)
    print(" ".join(f"{k}={v}" for k, v in line.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
