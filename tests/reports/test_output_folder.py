"""The output folder is exactly this run: swapped in whole, umask permissions, foreign files
refused unless --force, and clear one-line refusals for bad --out values."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest


@pytest.fixture
def umask022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def test_a_second_report_replaces_the_first_whole(run_cli, fixtures_dir, tmp_path, umask022):
    out = tmp_path / "site" / "report"
    a = run_cli("report", str(fixtures_dir / "sample_open.trf"), "--out", str(out))
    assert a.code == 0, a.stderr
    assert "player-24.html" in listing(out)
    b = run_cli("report", str(fixtures_dir / "sample_rapid.trf"), "-o", str(out))
    assert b.code == 0, b.stderr
    expected = {"index.html", "rating_players.csv", "rating_rounds.csv", "rating_tournament.csv",
                "norms.csv", ".fiderate", *(f"player-{n}.html" for n in range(1, 7))}
    assert listing(out) - {"scenarios.csv"} == expected
    assert "player-7.html" not in listing(out)
    assert not [p for p in out.parent.iterdir() if p.name != "report"]  # no temporary leftovers
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert {stat.S_IMODE(p.stat().st_mode) for p in out.iterdir()} == {0o644}


def test_a_folder_with_foreign_files_is_refused_unless_forced(run_cli, fixtures_dir, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.docx").write_text("precious")
    res = run_cli("report", str(fixtures_dir / "sample_rapid.trf"), "--out", str(out))
    assert res.code == 2 and res.stderr.count("\n") == 1  # refused before any work
    assert "thesis.docx" in res.stderr and "--force" in res.stderr
    assert (out / "thesis.docx").read_text() == "precious"
    forced = run_cli("report", str(fixtures_dir / "sample_rapid.trf"), "--out", str(out), "--force")
    assert forced.code == 0 and not (out / "thesis.docx").exists()


@pytest.mark.parametrize("command", ["report", "import"])
def test_an_empty_out_is_refused(run_cli, fixtures_dir, tmp_path, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run_cli(command, str(fixtures_dir / "sample_rapid.trf"), "--out", "")
    assert res.code == 2 and "empty" in res.stderr and list(tmp_path.iterdir()) == []


def test_format_without_out_is_an_error(run_cli, fixtures_dir):
    res = run_cli("report", str(fixtures_dir / "sample_rapid.trf"), "--format", "html")
    assert res.code == 2 and "--format needs --out" in res.stderr


def test_an_unwritable_out_names_the_folder_not_a_temporary_file(run_cli, fixtures_dir):
    res = run_cli("report", str(fixtures_dir / "sample_rapid.trf"), "--out", "/proc/fiderate-x")
    assert res.code == 2 and res.stderr.count("\n") == 1
    assert "/proc/fiderate-x: cannot write here" in res.stderr and ".tmp" not in res.stderr


def test_import_and_period_replace_their_folders_too(run_cli, fixtures_dir, tmp_path):
    out = tmp_path / "imported"
    assert run_cli("import", str(fixtures_dir / "sample_open.trf"), "-o", str(out),
                   "--format", "json").code == 0
    assert run_cli("import", str(fixtures_dir / "sample_open.trf"), "-o", str(out)).code == 0
    assert listing(out) == {"tournament.csv", "players.csv", "results.csv", "games.csv",
                            "warnings.csv", ".fiderate"}


def test_period_takes_o_too_and_replaces_its_folder(run_cli, fixtures_dir, tmp_path):
    period = fixtures_dir / "period"
    args = [str(p) for p in sorted(period.glob("*.trf"))]
    common = ["--period", "2025-12", "--store", str(tmp_path / "r.sqlite")]
    assert run_cli("period", *args, *common, "-o", str(tmp_path / "p")).code == 0
    first = listing(tmp_path / "p")
    again = run_cli("period", args[0], *common, "--replace", "-o", str(tmp_path / "p"))
    assert again.code == 0 and listing(tmp_path / "p") < first
