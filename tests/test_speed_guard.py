"""The speed guard's decisions (tests/bench/quick.py), without running any benchmark: a miss
is run again, a miss within the margin passes as slow, only a clear regression fails."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent / "bench" / "quick.py"
_spec = importlib.util.spec_from_file_location("bench_quick", _PATH)
assert _spec is not None and _spec.loader is not None
quick = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = quick  # dataclasses look their module up
_spec.loader.exec_module(quick)

Limit, verdict = quick.Limit, quick.verdict
RATIO = (Limit("ratio", 4.0),)
RATE = (Limit("rows_per_s", 5e6, at_least=True),)


@pytest.mark.parametrize(("ratios", "expected"), [
    ([3.9], "ok"),
    ([4.0], "ok"),                  # on the target is within it
    ([5.6, 4.9, 3.8], "ok"),        # a noisy first run, a re-run within the target
    ([4.5, 5.0, 4.2], "slow"),      # missed, but never beyond 1.5 × 4 = 6
    ([6.0], "slow"),                # exactly on the margin is not beyond it
    ([6.1, 7.0, 9.0], "FAIL"),      # every attempt clearly beyond
    ([9.0, 6.5, 8.0], "FAIL"),
])
def test_a_ratio_fails_only_beyond_the_margin(ratios, expected):
    assert verdict([{"ratio": r} for r in ratios], RATIO) == expected


@pytest.mark.parametrize(("rates", "expected"), [
    ([24e6], "ok"),
    ([4e6, 5.1e6], "ok"),
    ([4e6, 3.4e6], "slow"),          # 5 M ÷ 1.5 = 3.33 M
    ([3e6, 2e6, 3.3e6], "FAIL"),
])
def test_a_rate_must_stay_above_target_over_margin(rates, expected):
    assert verdict([{"rows_per_s": r} for r in rates], RATE) == expected


def test_all_limits_must_hold_and_one_clear_miss_fails():
    both = (Limit("ratio", 5.0), Limit("xml_ratio", 4.0))
    assert verdict([{"ratio": 1.3, "xml_ratio": 2.6}], both) == "ok"
    assert verdict([{"ratio": 1.3, "xml_ratio": 4.4}], both) == "slow"
    assert verdict([{"ratio": 1.3, "xml_ratio": 7.0}], both) == "FAIL"
    # each figure's best over the attempts
    assert verdict([{"ratio": 6.0, "xml_ratio": 2.6}, {"ratio": 1.3, "xml_ratio": 4.6}],
                   both) == "ok"


def test_the_better_of_wall_clock_and_cpu_time_counts():
    both = (Limit("ratio", 2.0, cpu="cpu_ratio"),)
    busy = {"ratio": 4.3, "cpu_ratio": 2.2}  # waiting for a core: only the wall clock grows
    assert verdict([busy], both) == "slow"
    assert verdict([busy], (Limit("ratio", 2.0),)) == "FAIL"
    assert verdict([{"ratio": 1.9, "cpu_ratio": 4.1}], both) == "ok"  # two threads
    assert verdict([{"ratio": 4.3, "cpu_ratio": 3.1}], both) == "FAIL"
    assert verdict([{"ratio": 1.9}], both) == "ok"  # no CPU figure printed: the wall clock
    assert verdict([{"cpu_ratio": 1.0}], (Limit("ratio", 2.0),)) == "FAIL"


def test_any_limit_is_enough_when_any_of():
    help_limits = (Limit("help_s", 0.3), Limit("ratio", 2.5))
    assert verdict([{"help_s": 0.5, "ratio": 2.0}], help_limits, any_of=True) == "ok"
    assert verdict([{"help_s": 0.35, "ratio": 4.0}], help_limits, any_of=True) == "slow"
    assert verdict([{"help_s": 0.6, "ratio": 4.0}], help_limits, any_of=True) == "FAIL"
    assert verdict([{"help_s": 0.6, "ratio": 4.0}], help_limits) == "FAIL"


def test_nothing_measured_fails():
    assert verdict([], RATIO) == "FAIL"
    assert verdict([{"other": 1.0}], RATIO) == "FAIL"
    assert verdict([{"ratio": math.nan}], RATIO) == "FAIL"
    assert verdict([{"ratio": 1.0}], ()) == "FAIL"


def _runner(values, figure="ratio"):
    calls = []

    def run(check):
        calls.append(check)
        value = values[len(calls) - 1]
        return quick.Run({figure: value}, f"{figure}={value}", 0.1)

    return run, calls


def _check(limits=RATIO):
    return quick.Check("a check", "none.py", (), limits)


def test_a_pass_is_not_run_again():
    run, calls = _runner([3.0, 9.0, 9.0])
    lines = []
    assert quick.guard(_check(), run, say=lines.append) == "ok"
    assert len(calls) == 1 and len(lines) == 1


def test_a_miss_is_run_again_until_it_passes():
    run, calls = _runner([5.6, 3.5, 9.0])
    lines = []
    assert quick.guard(_check(), run, say=lines.append) == "ok"
    assert len(calls) == 2
    assert lines[0].startswith("miss ") and "missed: ratio 5.6 > 4, run again" in lines[0]
    assert lines[1].startswith("ok ") and "ratio=3.5" in lines[1]


def test_a_clear_regression_fails_after_every_attempt_and_prints_each():
    run, calls = _runner([9.0, 8.0, 8.5])
    lines = []
    assert quick.guard(_check(), run, say=lines.append) == "FAIL"
    assert len(calls) == quick.ATTEMPTS == 3
    assert [line.split()[0] for line in lines] == ["miss", "miss", "FAIL"]
    assert all(f"ratio={v}" in line for v, line in zip([9.0, 8.0, 8.5], lines, strict=True))
    assert "run again" not in lines[-1]


def test_a_miss_within_the_margin_is_slow_on_its_last_line_only():
    run, calls = _runner([4.5, 5.0, 4.2])
    lines = []
    assert quick.guard(_check(), run, say=lines.append) == "slow"
    assert len(calls) == 3
    assert [line.split()[0] for line in lines] == ["miss", "miss", "slow"]
    assert lines[-1].endswith("missed: ratio 4.2 > 4")


def test_a_broken_benchmark_fails_at_once_and_a_skip_does_not():
    lines = []
    broken = quick.guard(_check(), lambda c: quick.Run({}, "", 0.1, error="exit 2: MISMATCH"),
                         say=lines.append)
    assert broken == "FAIL" and "MISMATCH" in lines[-1]
    skipped = quick.guard(_check(), lambda c: quick.Run({}, "skip: absent", 0.1, skipped=True),
                          say=lines.append)
    assert skipped == "skip"


def test_figures_are_read_from_every_line():
    figures, line = quick.parse_figures("page=a.html players=108\nload_s=0.0061 ratio=1.99\n")
    assert figures == {"players": 108.0, "load_s": 0.0061, "ratio": 1.99}
    assert line == "page=a.html players=108 load_s=0.0061 ratio=1.99"


def test_the_summary_fails_only_on_a_failure():
    assert quick.summary(["ok", "slow", "skip"], 12.0).startswith("pass: 3 checks, 1 ok, 1 slow")
    assert quick.summary(["ok", "FAIL"], 12.0).startswith("FAIL: 2 checks")


def test_the_budget_checks_the_documented_targets():
    targets = {(c.script, c.label.split(" (")[0]): (
        {(lim.figure, lim.cpu, lim.bound, lim.at_least) for lim in c.limits}, c.any_of)
        for c in quick.checks(Path("/tmp"))}
    targets = {script if label not in ("list show",) else f"{script} list show": want
               for (script, label), want in targets.items()}
    assert targets == {
        "import_bench.py": ({("ratio", "cpu_ratio", 2.0, False)}, False),
        "report_bench.py": ({("seconds", "cpu_seconds", 1.5, False)}, False),
        "help_bench.py": ({("help_s", "help_cpu_s", 0.3, False), ("ratio", "cpu_ratio", 2.5, False)},
                          True),
        "help_bench.py list show": ({("list_ratio", "list_cpu_ratio", 2.5, False),
                                     ("list_heavy", "", 0.0, False)}, False),
        "period_bench.py": ({("rows_per_s", "cpu_rows_per_s", 5e6, True)}, False),
        "rate_period_bench.py": ({("rows_per_s", "cpu_rows_per_s", 1e6, True),
                                  ("floor_ratio", "cpu_floor_ratio", 6.0, False)}, False),
        "fidelist_bench.py": ({("ratio", "cpu_ratio", 5.0, False),
                               ("xml_ratio", "xml_cpu_ratio", 4.0, False)}, False),
    }
    assert quick.MARGIN == 1.5
