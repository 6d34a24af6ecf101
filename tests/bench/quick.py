"""The speed budget, as CI runs it: every benchmark in quick mode, failing on a regression.

Targets (issues 3–6, 13): import load ≤ 2× a bare lxml walk; a 300-player, 9-round report in
≤ 1.5 s; ``fiderate --help`` ≤ 0.3 s (or ≤ 2.5× a bare Python start); the period engine
≥ 5 M rows/s; a FIDE list (200,000 players) loads in ≤ 5× reading its bytes and slicing its
columns with numpy, and its XML in ≤ 4× the TXT (a guard: the full-size target, 3×, is
measured by ``fidelist_bench.py`` on 1.9 M players; at this size start-up weighs more).
Ratios are used where the machine's speed drifts.  Prints one line per
benchmark and exits 1 if any misses its target.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT_TARGET_S = 1.5
FIDELIST_MAX_RATIO = 5.0
FIDELIST_XML_MAX_RATIO = 4.0


def run(script: str, *args: str) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True,
                          text=True, check=False, cwd=HERE.parent.parent)
    lines = (proc.stdout.strip() or proc.stderr.strip() or "(no output)").splitlines()
    return proc.returncode, lines[-1]


def figure(line: str, name: str) -> float:
    match = re.search(rf"\b{name}=([0-9.]+)", line)
    return float(match.group(1)) if match else float("inf")


def main() -> int:
    failed = 0
    checks = [
        ("import (load ≤ 2× lxml walk)", "import_bench.py", ("--repeat", "9"), None),
        ("report 300×9 (≤ 1.5 s)", "report_bench.py", (), "report"),
        ("fiderate --help (≤ 0.3 s)", "help_bench.py", (), None),
        ("period engine (≥ 5 M rows/s)", "period_bench.py", ("--quick",), None),
        ("FIDE list (≤ 5× raw, XML ≤ 4× TXT)", "fidelist_bench.py", ("--quick",), "list"),
    ]
    for label, script, args, special in checks:
        code, line = run(script, *args)
        if special == "report":
            best = min(figure(line, "seconds"), figure(line, "cpu_seconds"))
            code = code or (0 if best <= REPORT_TARGET_S else 1)
        elif special == "list":
            code = code or (0 if figure(line, "ratio") <= FIDELIST_MAX_RATIO
                            and figure(line, "xml_ratio") <= FIDELIST_XML_MAX_RATIO else 1)
        status = "ok  " if code == 0 else "FAIL"
        failed += code != 0
        print(f"{status} {label:32} {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
