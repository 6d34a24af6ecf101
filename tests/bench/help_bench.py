"""Start-up speed: ``fiderate --help`` must answer in ≤ 0.3 s (pandas is imported lazily).

Prints ``help_s=… python_s=… ratio=…``; passes when the median is within 0.3 s, or, on a
slower machine, within 2.5× a bare ``python -c pass`` start.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time

TARGET_S = 0.3
MAX_RATIO = 2.5


def median_run(cmd: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    exe = shutil.which("fiderate")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "reports", "--help"]
    help_s = median_run(cmd)
    python_s = median_run([sys.executable, "-c", "pass"])
    ratio = help_s / python_s
    print(f"help_s={help_s:.3f} python_s={python_s:.3f} ratio={ratio:.2f}")
    return 0 if help_s <= TARGET_S or ratio <= MAX_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
