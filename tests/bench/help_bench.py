"""Start-up speed: ``fiderate --help`` must answer in ≤ 0.3 s (pandas is imported lazily).

    python tests/bench/help_bench.py [--repeat N]

Times ``fiderate --help`` and a bare ``python -c pass`` start in turns (help, python, help,
python, …) so that the machine's load hits both alike, and keeps the best of each, on the
wall clock and in CPU seconds.  Prints ``help_s=… python_s=… ratio=… help_cpu_s=…
python_cpu_s=… cpu_ratio=…``; passes when the best is within 0.3 s, or, on a slower machine,
within 2.5× the best bare Python start (on either clock).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time

TARGET_S = 0.3
MAX_RATIO = 2.5


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def best_of_interleaved(cmds: list[list[str]], repeat: int) -> tuple[list[float], list[float]]:
    """The best wall time and the best CPU time (user + system) of each command, the commands
    run in turns ``repeat`` times."""
    wall = [float("inf")] * len(cmds)
    cpu = [float("inf")] * len(cmds)
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            start, cpu_start = time.perf_counter(), _children_cpu()
            subprocess.run(cmd, check=True, capture_output=True)
            wall[i] = min(wall[i], time.perf_counter() - start)
            cpu[i] = min(cpu[i], _children_cpu() - cpu_start)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="runs of each side (default 9)")
    args = parser.parse_args()
    exe = shutil.which("fiderate")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "reports", "--help"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the file cache
    (help_s, python_s), (help_cpu, python_cpu) = best_of_interleaved(
        [cmd, [sys.executable, "-c", "pass"]], args.repeat)
    ratio, cpu_ratio = help_s / python_s, help_cpu / python_cpu
    print(f"help_s={help_s:.3f} python_s={python_s:.3f} ratio={ratio:.2f} "
          f"help_cpu_s={help_cpu:.3f} python_cpu_s={python_cpu:.3f} cpu_ratio={cpu_ratio:.2f}")
    fast = min(help_s, help_cpu) <= TARGET_S or min(ratio, cpu_ratio) <= MAX_RATIO
    return 0 if fast else 1


if __name__ == "__main__":
    sys.exit(main())
