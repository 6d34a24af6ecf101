"""Start-up speed: ``fiderate --help`` must answer in ≤ 0.3 s (pandas is imported lazily).

    python tests/bench/help_bench.py [--repeat N]

Times ``fiderate --help`` and a bare ``python -c pass`` start in turns (help, python, help,
python, …) so that the machine's load hits both alike, and keeps the best of each.  Prints
``help_s=… python_s=… ratio=…``; passes when the best is within 0.3 s, or, on a slower
machine, within 2.5× the best bare Python start.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time

TARGET_S = 0.3
MAX_RATIO = 2.5


def best_of_interleaved(cmds: list[list[str]], repeat: int) -> list[float]:
    """The best wall time of each command, the commands run in turns ``repeat`` times."""
    best = [float("inf")] * len(cmds)
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="runs of each side (default 9)")
    args = parser.parse_args()
    exe = shutil.which("fiderate")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "reports", "--help"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the file cache
    help_s, python_s = best_of_interleaved([cmd, [sys.executable, "-c", "pass"]], args.repeat)
    ratio = help_s / python_s
    print(f"help_s={help_s:.3f} python_s={python_s:.3f} ratio={ratio:.2f}")
    return 0 if help_s <= TARGET_S or ratio <= MAX_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
