"""Import speed: ``importer.load`` of a saved crosstable against a bare lxml walk of its rows.

Target (issue 3): load ≤ 2× the bare walk, measured in one process, the two timed in turns
(load, walk, load, walk, …) and the best of each kept.  Prints ``load_s=… walk_s=… ratio=…
load_cpu_s=… walk_cpu_s=… cpu_ratio=…`` as its last line: wall-clock and CPU seconds (a
busy machine's scheduler cuts the 6 ms load into time slices that a 3 ms walk often escapes,
inflating the wall-clock ratio alone); exits 1 when both ratios exceed ``--max-ratio``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parents[2]
REALDATA = Path(os.environ.get("FIDERATE_REALDATA", ROOT.parent / "shared" / "realdata"))
PAGE = "chess-results/en_swiss_crosstable_art5_final_british2026.html"


def bare_walk(data: bytes) -> int:
    """What any importer must at least do: decode, build the tree, visit every CRs1 cell."""
    doc = lxml.html.fromstring(data.decode("utf-8"))
    cells = 0
    for row in doc.xpath("//table[contains(@class,'CRs1')]/tr"):
        for cell in row:
            cell.text_content()
            cells += 1
    return cells


def best_of_interleaved(fns, repeat: int) -> tuple[list[float], list[float]]:
    """Best wall-clock and best CPU time of each function, run in turns so that load on the
    machine hits all alike."""
    wall = [float("inf")] * len(fns)
    cpu = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            start, cpu_start = time.perf_counter(), time.process_time()
            fn()
            wall[i] = min(wall[i], time.perf_counter() - start)
            cpu[i] = min(cpu[i], time.process_time() - cpu_start)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--page", default=str(REALDATA / PAGE), help="a saved crosstable page")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--max-ratio", type=float, default=2.0)
    args = parser.parse_args()
    path = Path(args.page)
    if not path.is_file():
        print(f"skip: {path} is absent")
        return 0
    import importer

    data = path.read_bytes()
    importer.load(path)  # warm up imports and caches
    bare_walk(data)
    (load_s, walk_s), (load_cpu, walk_cpu) = best_of_interleaved(
        [lambda: importer.load(path), lambda: bare_walk(data)], args.repeat)
    ratio, cpu_ratio = load_s / walk_s, load_cpu / walk_cpu
    print(f"page={path.name} players={len(importer.load(path).players)}")
    print(f"load_s={load_s:.4f} walk_s={walk_s:.4f} ratio={ratio:.2f} "
          f"load_cpu_s={load_cpu:.4f} walk_cpu_s={walk_cpu:.4f} cpu_ratio={cpu_ratio:.2f}")
    return 0 if min(ratio, cpu_ratio) <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
