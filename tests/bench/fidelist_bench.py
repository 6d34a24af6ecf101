"""Benchmark read_fide_list on a synthetic full-size combined (FOA) list.

    python tests/bench/fidelist_bench.py [--lines N] [--quick] [--xml]

Writes a realistic 162-character FOA list (CRLF, the real header, varied ids, names,
ratings and flags; ~60 % unrated) to a temp dir, times a full load and a load filtered to
500 ids, and ends with ``lines=<n> seconds=<float> peak_rss_mb=<float>`` (the full load).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from importer.fidelist import read_fide_list

HEADER = ("ID Number      Name                                                         Fed Sex "
          "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
LAST = ["Carlsen", "Ding", "Nakamura", "Aagaard", "Ojok", "Andreikin", "Kumar", "Singh",
        "Muller", "Garcia", "Ivanov", "Nguyen", "Smith", "Rossi", "Kowalski", "Horvath"]
FIRST = ["Magnus", "Liren", "Hikaru", "Christian", "Patrick", "Dmitry", "Anna", "Priya",
         "Lukas", "Maria", "Olga", "Minh", "John", "Giulia", "Piotr", "Zsofia"]
FEDS = ["NOR", "CHN", "USA", "DEN", "UGA", "RUS", "IND", "GER", "ESP", "FRA", "NON", "   "]


def _rating(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return " " * 13
    return f"{rng.randint(1400, 2850):<6}{rng.randint(0, 30):<4}{rng.choice((10, 20, 40)):<3}"


def write_list(path: Path, lines: int, seed: int = 1) -> list[str]:
    """Write a synthetic FOA list of ``lines`` players; return 500 of its ids."""
    rng = random.Random(seed)
    ids = rng.sample(range(100_000, 99_999_999), lines)
    with path.open("w", newline="", encoding="ascii") as out:
        out.write(HEADER + "\r\n")
        batch = []
        for fid in ids:
            woman = rng.random() < 0.2
            name = f"{rng.choice(LAST)}{rng.randint(0, 999)}, {rng.choice(FIRST)}"
            title = rng.choice(("GM", "IM", "FM", "", "", "", "", "", "", ""))
            flags = ("w" if woman else "") + ("i" if rng.random() < 0.3 else "")
            born = str(rng.randint(1930, 2020)) if rng.random() < 0.95 else "0"
            line = (f"{fid:<15}{name:<61}{rng.choice(FEDS):<4}{'F' if woman else 'M':<4}"
                    f"{title:<5}{'WGM' if woman and title else '':<5}{'':<15}{'':<4}"
                    f"{_rating(rng)}{_rating(rng)}{_rating(rng)}{born:<6}{flags:<4}")
            batch.append(line)
            if len(batch) == 10_000:
                out.write("\r\n".join(batch) + "\r\n")
                batch = []
        if batch:
            out.write("\r\n".join(batch) + "\r\n")
    return [str(i) for i in rng.sample(ids, min(500, lines))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_930_000)
    parser.add_argument("--quick", action="store_true", help="200,000 lines")
    args = parser.parse_args()
    lines = 200_000 if args.quick else args.lines
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "players_list_foa.txt"
        start = time.perf_counter()
        sample = write_list(path, lines)
        print(f"generated {lines} lines ({path.stat().st_size / 1e6:.0f} MB) "
              f"in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        start = time.perf_counter()
        subset = read_fide_list(path, fide_ids=sample)
        filtered = time.perf_counter() - start
        print(f"filtered to {len(sample)} ids: {len(subset)} found in {filtered:.2f} s",
              file=sys.stderr)
        start = time.perf_counter()
        full = read_fide_list(path)
        seconds = time.perf_counter() - start
        assert len(full) == lines and not full.warnings, full.warnings[:3]
        start = time.perf_counter()
        found = sum(full.get(fid) is not None for fid in sample)
        print(f"full load {seconds:.2f} s; {found} get() in {time.perf_counter() - start:.2f} s",
              file=sys.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"lines={lines} seconds={seconds:.2f} peak_rss_mb={peak_mb:.1f}")


if __name__ == "__main__":
    main()
