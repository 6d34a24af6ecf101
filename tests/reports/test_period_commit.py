"""Whole or not at all: ``fiderate period`` killed at each step of its commit leaves the register
and the output folder as a pair — the old month in both, or the new month in both — once the
next run has looked (it ends a swap the register committed, puts back a folder moved aside,
and clears what a kill left half-made).  The kill is real: ``os._exit`` in a child process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from importer.writing.atomic import recover_folder
from rating.period.register import Register
from reports.cli.period import finish_outputs

pytestmark = pytest.mark.slow  # processes killed at each step

PERIOD = Path(__file__).resolve().parents[2] / "fixtures" / "period"

DRIVER = """
import os, shutil, sys
from pathlib import Path
import importer.writing.atomic as atomic
import rating.period.register as register

step, out = sys.argv[1], Path(sys.argv[2]).absolute()
old = out.parent / f".{out.name}.old"


def die(*_args, **_kwargs):
    os._exit(9)


if step == "staged":  # every file written, the folder not yet complete
    atomic.StagedDir.finish = die
elif step == "commit":  # inside the register's transaction, just before COMMIT
    class Dying:
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            if sql == "COMMIT":
                die()
            return self.db.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(self.db, name)

    write = register.Register.write_period

    def dying_write(self, *args, **kwargs):
        self._db = Dying(self._db)
        return write(self, *args, **kwargs)

    register.Register.write_period = dying_write
elif step in ("aside", "in"):  # the folder moved aside / the staged folder moved in
    replace = os.replace

    def dying_replace(src, dst):
        if (step == "aside" and Path(src) == out) or (step == "in" and Path(dst) == out):
            die()
        return replace(src, dst)

    os.replace = dying_replace
elif step == "cleanup":  # the new folder in, the old copy not yet removed
    rmtree = shutil.rmtree
    shutil.rmtree = lambda path, *a, **k: die() if Path(path) == old else rmtree(path, *a, **k)
elif step == "forget":  # everything done but the register's note of the swap
    register.Register.output_done = die

from reports.cli import main
sys.argv = ["fiderate", *sys.argv[3:]]
main()
"""


def period(store: Path, out: Path, month: str, event: str, *extra: str) -> list[str]:
    return ["period", str(PERIOD / event), "--period", month, "--store", str(store),
            "--out", str(out), "--assign", f"{event}={month}", "--quiet", *extra]


def month_shown(out: Path) -> str | None:
    page = out / "period.html"
    if not page.is_file():
        return None
    text = page.read_text(encoding="utf-8")
    return next((m for m in ("2025-12", "2026-01") if f"FIDE rating period {m}" in text), None)


@pytest.mark.parametrize(("step", "after"), [
    ("staged", "2025-12"), ("commit", "2025-12"), ("aside", "2026-01"), ("in", "2026-01"),
    ("cleanup", "2026-01"), ("forget", "2026-01")])
def test_a_kill_at_each_step_leaves_a_pair(run_cli, tmp_path: Path, step: str, after: str) -> None:
    store, out = tmp_path / "reg.sqlite", tmp_path / "month"
    assert run_cli(*period(store, out, "2025-12", "elite_nov2025.trf")).code == 0
    killed = subprocess.run([sys.executable, "-c", DRIVER, step, str(out),
                             *period(store, out, "2026-01", "halloween_weekender.trf")],
                            capture_output=True, text=True, check=False)
    assert killed.returncode == 9, killed.stderr
    # nothing is lost: the folder, its copy aside or the staged folder is there
    assert out.is_dir() or (tmp_path / ".month.old").is_dir() or any(tmp_path.glob(".month.*.tmp"))
    with Register(store) as reg:  # what the next run does first
        finish_outputs(reg)
        recover_folder(out)
        assert f"{reg.newest_period():%Y-%m}" == after
        assert reg.pending_outputs() == []
    assert month_shown(out) == after
    # no half-made folder is left (SQLite may leave an empty journal: it holds nothing)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith("-journal")) == [
        "month", "reg.sqlite"]
    # and the next run goes on from there
    again = run_cli(*period(store, out, "2026-01", "halloween_weekender.trf"))
    assert again.code == 0, again.stderr
    assert month_shown(out) == "2026-01"


def test_a_folder_moved_aside_is_put_back_never_deleted(run_cli, tmp_path: Path) -> None:
    """A kill just after the old folder was moved aside, in a run without a register's record
    (an older fiderate, or ``report``): the next run restores it before anything else."""
    out = tmp_path / "month"
    assert run_cli(*period(tmp_path / "reg.sqlite", out, "2025-12", "elite_nov2025.trf")).code == 0
    out.rename(tmp_path / ".month.old")
    (tmp_path / ".month.abc123.tmp").mkdir()  # a half-made folder of a killed run
    res = run_cli("report", str(PERIOD / "elite_nov2025.trf"), "--out", str(out))
    assert res.code == 0, res.stderr  # the restored folder was fiderate's: replaced by the report
    assert sorted(p.name for p in tmp_path.iterdir()) == ["month", "reg.sqlite"]
    assert (out / "index.html").is_file()
