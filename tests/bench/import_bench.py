"""Import speed: ``importer.load`` of the large saved pages against a bare lxml walk of their rows.

Target (issue 3): load ≤ 2× the bare walk on each page, measured in one process, the two timed
in turns (load, walk, load, walk, …), each paying for its own frees (:func:`settle_frees`), and
the best of each kept.  The pages: the British Championship's final crosstable (108 players,
9 rounds) and the Portimão final ranking list with its published rating figures (99 rows,
23 columns, every one sniffed by its values).
Prints one line per page, ``page=… players=… load_ms=… walk_ms=… ratio=… cpu_ratio=…``, then
``load_s=… walk_s=… ratio=… load_cpu_s=… walk_cpu_s=… cpu_ratio=…`` as its last line: the worst
page's figures (its worst ratio), wall-clock and CPU seconds (a busy machine's scheduler cuts
the 6 ms load into time slices that a 3 ms walk often escapes, inflating the wall-clock ratio
alone); exits 1 when both ratios of a page exceed ``--max-ratio``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import lxml.html

import importer

ROOT = Path(__file__).resolve().parents[2]
REALDATA = Path(os.environ.get("FIDERATE_REALDATA", ROOT.parent / "shared" / "realdata"))
PAGES = ("chess-results/en_swiss_crosstable_art5_final_british2026.html",
         "chess-results/en_final_ranking_rtgchange_art1_portimao2024.html")


def bare_walk(data: bytes) -> int:
    """What any importer must at least do: decode, build the tree, visit every CRs1 cell."""
    doc = lxml.html.fromstring(data.decode("utf-8"))
    cells = 0
    for row in doc.xpath("//table[contains(@class,'CRs1')]/tr"):
        for cell in row:
            cell.text_content()
            cells += 1
    return cells


def settle_frees() -> None:
    """Let the C allocator finish the frees just made: glibc merges the small blocks a freed
    tree leaves behind only at the next allocation of 1 KB or more (about 0.15 ms for one of
    these pages' lxml trees), which would bill whichever call comes next for the other's
    tree (the load's first read paid for the walk's tree)."""
    bytes(4096)


def best_of_interleaved(fns, repeat: int) -> tuple[list[float], list[float]]:
    """Best wall-clock and best CPU time of each function, run in turns so that load on the
    machine hits all alike; each call pays for its own frees (:func:`settle_frees`)."""
    wall = [float("inf")] * len(fns)
    cpu = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            start, cpu_start = time.perf_counter(), time.process_time()
            fn()
            settle_frees()
            wall[i] = min(wall[i], time.perf_counter() - start)
            cpu[i] = min(cpu[i], time.process_time() - cpu_start)
    return wall, cpu


@dataclass(frozen=True)
class Timing:
    """One page's best load and bare walk, wall clock and CPU seconds."""

    page: str
    players: int
    load_s: float
    walk_s: float
    load_cpu: float
    walk_cpu: float

    @property
    def ratio(self) -> float:
        return self.load_s / self.walk_s

    @property
    def cpu_ratio(self) -> float:
        return self.load_cpu / self.walk_cpu


def time_page(path: Path, repeat: int) -> Timing:
    """``importer.load`` of the page against :func:`bare_walk` of its bytes, in turns."""
    data = path.read_bytes()
    players = len(importer.load(path).players)  # warm up imports and caches
    bare_walk(data)
    (load_s, walk_s), (load_cpu, walk_cpu) = best_of_interleaved(
        [lambda: importer.load(path), lambda: bare_walk(data)], repeat)
    return Timing(path.name, players, load_s, walk_s, load_cpu, walk_cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--page", action="append", default=None,
                        help="a saved chess-results page (repeatable; default: "
                             + ", ".join(Path(p).name for p in PAGES) + ")")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--max-ratio", type=float, default=2.0)
    args = parser.parse_args()
    paths = [Path(p) for p in args.page or [REALDATA / p for p in PAGES]]
    missing = [p for p in paths if not p.is_file()]
    if missing:
        print(f"skip: {', '.join(map(str, missing))} absent")
        return 0
    timings: list[Timing] = []
    for path in paths:
        t = time_page(path, args.repeat)
        timings.append(t)
        print(f"page={t.page} players={t.players} load_ms={t.load_s * 1000:.2f} "
              f"walk_ms={t.walk_s * 1000:.2f} ratio={t.ratio:.2f} "
              f"load_cpu_ms={t.load_cpu * 1000:.2f} walk_cpu_ms={t.walk_cpu * 1000:.2f} "
              f"cpu_ratio={t.cpu_ratio:.2f}")
    worst = max(timings, key=lambda t: min(t.ratio, t.cpu_ratio))
    print(f"load_s={worst.load_s:.4f} walk_s={worst.walk_s:.4f} "
          f"ratio={max(t.ratio for t in timings):.2f} load_cpu_s={worst.load_cpu:.4f} "
          f"walk_cpu_s={worst.walk_cpu:.4f} cpu_ratio={max(t.cpu_ratio for t in timings):.2f} "
          f"load_average={os.getloadavg()[0]:.2f}")
    return 0 if all(min(t.ratio, t.cpu_ratio) <= args.max_ratio for t in timings) else 1


if __name__ == "__main__":
    sys.exit(main())
