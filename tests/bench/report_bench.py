"""Benchmark: the full CSV + HTML report of a synthetic 300-player, 9-round event.

Writes a seeded synthetic tournament as a normalized folder in a temp dir, then runs
``fiderate report SOURCE --out DIR`` end to end (a subprocess by default, so import
time counts; ``--in-process`` to time only the command).  Prints ``seconds=<float>``.
Also prints ``cpu_seconds`` (user + system), steadier on a shared machine.  ``--repeat N``
runs the report N times and prints the best of each.  Target: under 1.5 s.  Not part of the
default pytest run.

    python tests/bench/report_bench.py [--players 300] [--rounds 9] [--in-process] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from importer.formats.normalized import write_folder
from importer.model import (
    Colour,
    Game,
    GameResult,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)


def synthetic(players: int, rounds: int, seed: int = 2026) -> Tournament:
    """A Swiss-like event: random pairings, a bye for an odd field, some forfeits, unrated
    players, and the last round paired but unplayed for a tenth of the boards."""
    rng = random.Random(seed)
    people = [Player(start_no=i, name=f"Player {i:03d}, Synthetic", federation="ENG",
                     fide_id=str(10_000_000 + i), birth_year=rng.choice([None, 1970, 2012]),
                     title=rng.choice(["", "", "", "FM", "IM", "GM"]),
                     rating=None if rng.random() < 0.05 else 2700 - 4 * i + rng.randint(-20, 20))
              for i in range(1, players + 1)]
    results: list[RoundResult] = []
    games: list[Game] = []
    for rnd in range(1, rounds + 1):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        if len(order) % 2:
            bye = order.pop()
            results.append(RoundResult(start_no=bye, round=rnd, status=Status.BYE, points=1.0))
        for board, (w, b) in enumerate(zip(order[::2], order[1::2], strict=True), start=1):
            roll = rng.random()
            if rnd == rounds and board % 10 == 0:
                st_w = st_b = Status.PENDING
                pw = pb = None
                result = GameResult.PENDING
            elif roll < 0.02:
                st_w, st_b, pw, pb = Status.FORFEIT_WIN, Status.FORFEIT_LOSS, 1.0, 0.0
                result = GameResult.WHITE_FORFEIT_WIN
            else:
                pw = rng.choice([1.0, 0.5, 0.0])
                pb = 1.0 - pw
                st_w = st_b = Status.PLAYED
                result = {1.0: GameResult.WHITE_WIN, 0.5: GameResult.DRAW,
                          0.0: GameResult.BLACK_WIN}[pw]
            results.append(RoundResult(start_no=w, round=rnd, status=st_w, opponent_no=b,
                                       colour=Colour.WHITE, points=pw))
            results.append(RoundResult(start_no=b, round=rnd, status=st_b, opponent_no=w,
                                       colour=Colour.BLACK, points=pb))
            games.append(Game(round=rnd, white_no=w, black_no=b, result=result, board=board))
    info = TournamentInfo(name="Synthetic Open", start_date=date(2026, 8, 1),
                          end_date=date(2026, 8, 9), rounds=rounds,
                          rating_list=RatingList.STANDARD, federation="ENG")
    return Tournament(info=info, players=tuple(people), results=tuple(results),
                      games=tuple(games))


def _cpu() -> float:
    """User + system CPU seconds of this process and its finished children (the wall clock
    on a busy machine measures the machine, not the command)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = write_folder(synthetic(args.players, args.rounds), Path(tmp) / "event")
        out = Path(tmp) / "report"
        argv = ["report", str(source), "--out", str(out), "--quiet"]
        seconds = cpu = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            cpu_start = _cpu()
            if args.in_process:
                from reports.cli import main as cli_main

                try:
                    cli_main(argv)
                except SystemExit as exc:
                    if exc.code:
                        raise
            else:
                subprocess.run([sys.executable, "-m", "reports", *argv], check=True)
            seconds = min(seconds, time.perf_counter() - start)
            cpu = min(cpu, _cpu() - cpu_start)
        files = sorted(p.name for p in out.iterdir())
        assert "index.html" in files and "rating_players.csv" in files, files
        print(f"files={len(files)}")
        print(f"cpu_seconds={cpu:.3f}")
        print(f"seconds={seconds:.3f}")


if __name__ == "__main__":
    main()
