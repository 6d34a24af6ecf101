"""Start-up speed: ``fiderate --help`` must answer in ≤ 0.3 s (pandas is imported lazily), and
``fiderate list show FIDEID`` in ≤ 2.5× that, loading neither numpy nor pandas.

    python tests/bench/help_bench.py [--repeat N]

Times ``fiderate --help``, a bare ``python -c pass`` and ``fiderate list show`` (on a register
holding a small FIDE list) in turns (help, python, list show, help, …) so that the machine's
load hits them alike, and keeps the best of each, on the wall clock and in CPU seconds.
Prints ``help_s=… python_s=… ratio=… help_cpu_s=… python_cpu_s=… cpu_ratio=… list_s=…
list_ratio=… list_cpu_ratio=… list_heavy=…`` (``list_heavy``: 1 when ``list show`` imported
numpy or pandas); passes when ``--help`` is within 0.3 s, or within 2.5× the bare Python start
(on either clock), and ``list show`` within 2.5× ``--help`` without numpy or pandas.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 0.3
MAX_RATIO = 2.5
LIST_RATIO = 2.5
"""``list show`` against ``--help``."""
PLAYER = "1503014"
LIST = ("ID Number      Name                                                         Fed Sex Tit  "
        "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag\n"
        "1503014        Carlsen, Magnus                                              NOR M   GM  "
        "                        2833  0   10 2801  0   10 2860  0   10 1990\n")
"""A one-player list in the FOA layout (the columns of FIDE's download)."""
HEAVY = ("import contextlib, io, sys\nfrom reports.cli import main\n"
         "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
         "    main(sys.argv[1:])\n"
         "print(int(bool({'numpy', 'pandas'} & set(sys.modules))))")


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
    base = [exe] if exe else [sys.executable, "-m", "reports"]
    with tempfile.TemporaryDirectory(prefix="fiderate-help-") as tmp:
        listed, store = Path(tmp) / "players_list_foa.txt", str(Path(tmp) / "r.sqlite")
        listed.write_text(LIST, encoding="utf-8")
        subprocess.run([*base, "list", "import", str(listed), "--month", "2026-10", "--store",
                        store, "-q"], check=True, capture_output=True)
        show = [*base, "list", "show", PLAYER, "--store", store]
        heavy = subprocess.run([sys.executable, "-c", HEAVY, "list", "show", PLAYER, "--store",
                                store], check=True, capture_output=True, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "ignore"}).stdout.strip()
        subprocess.run([*base, "--help"], check=True, capture_output=True)  # warm the cache
        (help_s, python_s, list_s), (help_cpu, python_cpu, list_cpu) = best_of_interleaved(
            [[*base, "--help"], [sys.executable, "-c", "pass"], show], args.repeat)
    ratio, cpu_ratio = help_s / python_s, help_cpu / python_cpu
    list_ratio, list_cpu_ratio = list_s / help_s, list_cpu / help_cpu
    print(f"help_s={help_s:.3f} python_s={python_s:.3f} ratio={ratio:.2f} "
          f"help_cpu_s={help_cpu:.3f} python_cpu_s={python_cpu:.3f} cpu_ratio={cpu_ratio:.2f} "
          f"list_s={list_s:.3f} list_ratio={list_ratio:.2f} list_cpu_ratio={list_cpu_ratio:.2f} "
          f"list_heavy={heavy}")
    fast = min(help_s, help_cpu) <= TARGET_S or min(ratio, cpu_ratio) <= MAX_RATIO
    light = heavy == "0" and min(list_ratio, list_cpu_ratio) <= LIST_RATIO
    return 0 if fast and light else 1


if __name__ == "__main__":
    sys.exit(main())
