"""Atomic output: a failed or killed writer leaves the previous output intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from importer.writing.atomic import atomic_dir, atomic_file, write_text_atomic


def test_exception_mid_file_keeps_previous(tmp_path):
    target = tmp_path / "report.csv"
    write_text_atomic(target, "old\n")
    with pytest.raises(RuntimeError), atomic_file(target) as fh:
        fh.write("half of the new")
        raise RuntimeError("boom")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"]


def test_exception_mid_folder_keeps_previous(tmp_path):
    out = tmp_path / "out"
    with atomic_dir(out) as tmp:
        (tmp / "a.csv").write_text("v1")
    with pytest.raises(RuntimeError), atomic_dir(out) as tmp:
        (tmp / "a.csv").write_text("v2 partial")
        raise RuntimeError("boom")
    assert (out / "a.csv").read_text() == "v1"
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_new_folder_appears_whole_or_not_at_all(tmp_path):
    out = tmp_path / "fresh"
    with pytest.raises(RuntimeError), atomic_dir(out) as tmp:
        (tmp / "a.csv").write_text("x")
        raise RuntimeError("boom")
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_killed_writer_leaves_previous_output(tmp_path):
    out = tmp_path / "out"
    with atomic_dir(out) as tmp:
        (tmp / "players.csv").write_text("previous\n")
    script = textwrap.dedent(f"""
        import sys, time
        from importer.writing.atomic import atomic_dir
        with atomic_dir({str(out)!r}) as tmp:
            (tmp / "players.csv").write_text("new but unfinished\\n")
            print("writing", flush=True)
            time.sleep(60)
    """)
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                          text=True) as proc:  # closes the pipe
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "writing"
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.wait(timeout=30)
    assert (out / "players.csv").read_text() == "previous\n"
