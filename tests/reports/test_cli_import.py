"""``fiderate import``: formats, the summary, round trips and bad input through the real CLI."""

from __future__ import annotations

import json

import pytest

import importer


def test_import_sample_to_csv_and_back(run_cli, fixtures_dir, tmp_path):
    res = run_cli("import", str(fixtures_dir / "sample_open.trf"), "--out", str(tmp_path / "o"))
    assert res.code == 0, res
    assert "24 players" in res.stderr and "7 rounds" in res.stderr
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == [
        ".fiderate", "games.csv", "players.csv", "results.csv", "tournament.csv", "warnings.csv"]
    header = (tmp_path / "o" / "results.csv").read_text().splitlines()[0]
    assert header.startswith("start_no,round,opponent_no,colour,points,status")
    original = importer.load(fixtures_dir / "sample_open.trf")
    assert importer.load(tmp_path / "o") == original
    again = run_cli("import", str(tmp_path / "o"), "--out", str(tmp_path / "o2"), "-q")
    assert again.code == 0
    assert again.stderr == ""
    for name in ("tournament.csv", "players.csv", "results.csv", "games.csv", "warnings.csv"):
        assert (tmp_path / "o" / name).read_bytes() == (tmp_path / "o2" / name).read_bytes()


def test_import_json_and_trf_to_stdout(run_cli, fixtures_dir):
    res = run_cli("import", str(fixtures_dir / "sample_open.trf"), "--format", "json", "-q")
    doc = json.loads(res.stdout)
    assert len(doc["players"]) == 24
    assert {r["status"] for r in doc["results"]} >= {"played", "forfeit_win", "forfeit_loss"}
    res = run_cli("import", str(fixtures_dir / "sample_open.trf"), "--format", "trf", "-q")
    assert res.stdout.startswith("012 ")
    assert sum(1 for line in res.stdout.splitlines() if line.startswith("001 ")) == 24


def test_import_single_table_to_stdout(run_cli, fixtures_dir):
    res = run_cli("import", str(fixtures_dir / "sample_open.trf"), "--table", "games", "-q")
    assert res.stdout.splitlines()[0] == "round,board,white_no,black_no,result"


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"),
    (b"\x00\x01\x02garbage\xff" * 50, "binary"),
    (b"<html><body><p>Hello</p></body></html>", "not a chess-results page"),
    (b"PK\x03\x04not really a zip", "zip"),
], ids=["empty", "binary", "foreign-html", "broken-zip"])
def test_bad_files_exit_2_one_line_nothing_written(run_cli, tmp_path, content, message):
    bad = tmp_path / "bad.dat"
    bad.write_bytes(content)
    out = tmp_path / "out"
    res = run_cli("import", str(bad), "--out", str(out))
    assert res.code == 2, res
    assert message in res.stderr
    assert str(bad) in res.stderr
    assert 1 <= len(res.stderr.strip().splitlines()) <= 3
    assert "Traceback" not in res.stderr
    assert not out.exists()


def test_missing_source(run_cli, tmp_path):
    res = run_cli("import", str(tmp_path / "nope.trf"))
    assert res.code == 2
    assert "not a chess-results URL or tournament number" in res.stderr
