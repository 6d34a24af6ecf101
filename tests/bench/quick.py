"""The speed budget, as CI runs it: every benchmark in quick mode, failing on a clear regression.

Targets (issues 3–6, 13, 17): import load ≤ 2× a bare lxml walk; a 300-player, 9-round
report in ≤ 1.5 s; ``fiderate --help`` ≤ 0.3 s (or ≤ 2.5× a bare Python start), and
``fiderate list show`` ≤ 2.5× ``--help`` with neither numpy nor pandas imported; the period
engine ≥ 5 M rows/s, and ``rate_period`` from tournament records ≥ 10⁶ player-game rows/s
(issue 31) and ≤ 6× a bare numpy floor over the same rows;
a FIDE list (200,000 players) loads in ≤ 5× reading its bytes and slicing its columns with
numpy, and its XML in ≤ 4× the TXT (a guard: the full-size target, 3×, is measured by
``fidelist_bench.py`` on 1.9 M players; at this size start-up weighs more).
Ratios are used where the machine's speed drifts.

A guard that does not cry wolf on a shared, busy machine:

- every figure is a best of N, and a ratio's two sides are timed in turns (A, B, A, B, …)
  in the same run, the best of each kept, so that the machine's phases hit both alike;
- a check that misses its target is run again, up to ``ATTEMPTS`` times in all, and each
  figure's best over the attempts is judged;
- it fails only when that best is still beyond ``MARGIN`` × its target (or, for a rate,
  below target ÷ ``MARGIN``): a clear regression.  A miss within the margin is reported as
  ``slow`` and does not fail the run.

Prints one line per benchmark run (each attempt, every figure it printed), then a summary
line; exits 1 only on a clear regression or a benchmark that breaks.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

MARGIN = 1.5
"""How far beyond its target a figure must stay, after the re-runs, to fail the run.  On this
project's 2-core CI machine, shared with other jobs (load average 4–5), the same code's best
wall-clock figures reached 1.4–1.5× a target (the XML list ratio: 3.5–5.9 against 4.0, its
two-thread reader losing a core to the neighbours) and its CPU-time figures 1.1× (import
2.2 against 2.0, XML 4.2 against 4.0), so 1.5× is beyond the noise; the regressions the
budget is there for (a loop back in Python, pandas imported by ``--help``, a lost
vectorisation) cost 2× or more, and a 2× slower import or XML load fails on such a machine."""
ATTEMPTS = 3
"""The first run and up to two re-runs of a check that misses its target."""

OK, SLOW, FAIL, SKIP = "ok", "slow", "FAIL", "skip"
MISS = "miss"
"""An attempt that missed its target, to be run again (not a verdict)."""


@dataclass(frozen=True)
class Limit:
    """A target for one printed figure: at most ``bound`` (a time or a ratio), or at least
    ``bound`` when ``at_least`` (a rate).

    ``cpu`` names the same measure in CPU seconds, when the benchmark prints it: the better of
    the two readings counts.  A busy machine makes a command wait for a core, which inflates
    its wall clock but not its CPU time; a command that spreads over threads is credited for
    them on the wall clock.
    """

    figure: str
    bound: float
    at_least: bool = False
    cpu: str = ""

    def best(self, attempts: Sequence[Mapping[str, float]]) -> float:
        """The best reading over the attempts (a figure no attempt printed is the worst)."""
        names = [self.figure, self.cpu] if self.cpu else [self.figure]
        values = [a[n] for a in attempts for n in names if n in a and not math.isnan(a[n])]
        if not values:
            return -math.inf if self.at_least else math.inf
        return max(values) if self.at_least else min(values)

    def met(self, value: float, margin: float = 1.0) -> bool:
        """Within the target (``margin`` 1), or within ``margin`` × the target."""
        return value >= self.bound / margin if self.at_least else value <= self.bound * margin

    def missed(self, attempts: Sequence[Mapping[str, float]]) -> str:
        """How the best reading misses the target (``""`` when it does not)."""
        value = self.best(attempts)
        if self.met(value):
            return ""
        name = f"{self.figure}|{self.cpu}" if self.cpu else self.figure
        return f"{name} {value:.4g} {'<' if self.at_least else '>'} {self.bound:g}"


def verdict(attempts: Sequence[Mapping[str, float]], limits: Sequence[Limit], *,
            any_of: bool = False, margin: float = MARGIN) -> str:
    """Judge a check from its attempts' figures: ``ok``, ``slow`` (a miss within ``margin``)
    or ``FAIL`` (beyond it).

    Each limit is judged on its figure's best over the attempts (noise only ever slows a
    run down, so the best is the closest to the code's own speed).  All limits must hold, or
    with ``any_of`` one of them is enough.  No attempts, or a figure no attempt printed, fail.
    """
    if not attempts or not limits:
        return FAIL
    best = [lim.best(attempts) for lim in limits]
    combine = any if any_of else all
    if combine(lim.met(v) for lim, v in zip(limits, best, strict=True)):
        return OK
    if combine(lim.met(v, margin) for lim, v in zip(limits, best, strict=True)):
        return SLOW
    return FAIL


@dataclass(frozen=True)
class Check:
    """A benchmark script, its arguments and the targets on the figures it prints."""

    label: str
    script: str
    args: tuple[str, ...]
    limits: tuple[Limit, ...]
    any_of: bool = False

    def verdict(self, attempts: Sequence[Mapping[str, float]]) -> str:
        return verdict(attempts, self.limits, any_of=self.any_of)

    def missed(self, attempts: Sequence[Mapping[str, float]]) -> str:
        """The limits the best figures miss, e.g. ``xml_ratio|xml_cpu_ratio 4.31 > 4``."""
        return "; ".join(m for m in (lim.missed(attempts) for lim in self.limits) if m)


@dataclass
class Run:
    """One attempt: the figures printed, their text, and the seconds the script took."""

    figures: dict[str, float]
    line: str
    seconds: float
    error: str = ""
    skipped: bool = False


Runner = Callable[[Check], Run]


FIGURE = re.compile(r"\b([A-Za-z_]\w*)=(\S+)")


def parse_figures(text: str) -> tuple[dict[str, float], str]:
    """Every ``key=value`` a benchmark printed (later lines win), as numbers where they are
    numbers, and the same figures as one line of text."""
    pairs = dict(FIGURE.findall(text))
    figures = {}
    for key, value in pairs.items():
        with contextlib.suppress(ValueError):
            figures[key] = float(value)
    return figures, " ".join(f"{k}={v}" for k, v in pairs.items())


def run_script(check: Check) -> Run:
    """Run a benchmark script in a fresh interpreter and read its figures."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, str(HERE / check.script), *check.args],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    seconds = time.perf_counter() - start
    figures, line = parse_figures(proc.stdout)
    if proc.stdout.strip().startswith("skip:"):
        return Run({}, proc.stdout.strip().splitlines()[0], seconds, skipped=True)
    wanted = [lim.figure for lim in check.limits]
    # A script's own exit 1 is its verdict on its figures (judged here instead); anything else,
    # or figures missing, is a broken benchmark.
    if proc.returncode not in (0, 1) or not all(f in figures for f in wanted):
        tail = (proc.stderr.strip() or proc.stdout.strip() or "(no output)").splitlines()[-1]
        return Run(figures, line, seconds, error=f"exit {proc.returncode}: {tail}")
    return Run(figures, line, seconds)


def guard(check: Check, runner: Runner = run_script, attempts: int = ATTEMPTS,
          say: Callable[[str], None] = print) -> str:
    """Run a check until it meets its targets or ``attempts`` runs are made; print one line
    per run; return the final verdict (``ok``, ``slow``, ``FAIL`` or ``skip``)."""
    runs: list[dict[str, float]] = []
    status = FAIL
    for n in range(1, attempts + 1):
        run = runner(check)
        if run.skipped:
            say(f"{SKIP:4} {check.label:36} {run.line}")
            return SKIP
        if run.error:
            say(f"{FAIL:4} {check.label:36} {n}/{attempts} {run.line} [{run.seconds:.1f} s] "
                f"broken: {run.error}")
            return FAIL
        runs.append(run.figures)
        status = check.verdict(runs)
        again = status != OK and n < attempts
        note = "" if status == OK else f" missed: {check.missed(runs)}" + (
            ", run again" if again else "")
        shown = MISS if again else status  # FAIL and slow only on a check's last line
        say(f"{shown:4} {check.label:36} {n}/{attempts} {run.line} [{run.seconds:.1f} s]{note}")
        if not again:
            break
    return status


def checks(folder: Path) -> list[Check]:
    """The quick budget; ``folder`` keeps the generated FIDE lists between attempts."""
    return [
        Check("import (load ≤ 2× lxml walk)", "import_bench.py", ("--repeat", "30"),
              (Limit("ratio", 2.0, cpu="cpu_ratio"),)),
        Check("report 300×9 (≤ 1.5 s)", "report_bench.py", ("--repeat", "3"),
              (Limit("seconds", 1.5, cpu="cpu_seconds"),)),
        Check("fiderate --help (≤ 0.3 s or ≤ 2.5×)", "help_bench.py", ("--repeat", "9"),
              (Limit("help_s", 0.3, cpu="help_cpu_s"), Limit("ratio", 2.5, cpu="cpu_ratio")),
              any_of=True),
        Check("list show (≤ 2.5× --help, no numpy)", "help_bench.py", ("--repeat", "9"),
              (Limit("list_ratio", 2.5, cpu="list_cpu_ratio"), Limit("list_heavy", 0.0))),
        Check("period engine (≥ 5 M rows/s)", "period_bench.py", ("--quick",),
              (Limit("rows_per_s", 5_000_000.0, at_least=True, cpu="cpu_rows_per_s"),)),
        Check("rate_period (≥ 10⁶ rows/s, ≤ 6× numpy)", "rate_period_bench.py", ("--quick",),
              (Limit("rows_per_s", 1_000_000.0, at_least=True, cpu="cpu_rows_per_s"),
               Limit("floor_ratio", 6.0, cpu="cpu_floor_ratio"))),
        Check("FIDE list (≤ 5× raw, XML ≤ 4× TXT)", "fidelist_bench.py",
              ("--quick", "--keep", str(folder)),
              (Limit("ratio", 5.0, cpu="cpu_ratio"), Limit("xml_ratio", 4.0, cpu="xml_cpu_ratio"))),
    ]


def summary(statuses: Sequence[str], seconds: float) -> str:
    """The last line: how many checks ended how, and whether the run fails."""
    counts = {s: statuses.count(s) for s in (OK, SLOW, FAIL, SKIP)}
    failed = counts[FAIL] > 0
    parts = [f"{counts[OK]} ok", f"{counts[SLOW]} slow (missed, within {MARGIN:g}× the target)",
             f"{counts[FAIL]} failed"] + ([f"{counts[SKIP]} skipped"] if counts[SKIP] else [])
    return (f"{'FAIL' if failed else 'pass'}: {len(statuses)} checks, " + ", ".join(parts)
            + f"; {seconds:.0f} s, load average {os.getloadavg()[0]:.1f}")


def main() -> int:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fiderate-bench-") as tmp:
        statuses = [guard(check) for check in checks(Path(tmp))]
    print(summary(statuses, time.perf_counter() - start))
    return 1 if FAIL in statuses else 0


if __name__ == "__main__":
    sys.exit(main())
