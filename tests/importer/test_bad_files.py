"""Bad files through the real CLI: exit 2, one to three lines naming the file, nothing written.

Covers every case of the hardening issue; the parsers' own tests check the details.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest


def assert_refused(res, out: Path, *words: str) -> None:
    assert res.code == 2, res
    lines = res.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 3, res.stderr
    assert lines[-1].startswith("fiderate: error: ")
    assert "Traceback" not in res.stderr
    for word in words:
        assert word in res.stderr, (word, res.stderr)
    assert not out.exists()


@pytest.mark.parametrize(("fixture", "words"), [
    ("chess-results/art5_crosstable_truncated.html", ["art5_crosstable_truncated.html"]),
    ("chess-results/not_chess_results.html", ["not_chess_results.html"]),
    ("excel/not_a_zip.xlsx", ["not_a_zip.xlsx"]),
    ("excel/zip_bomb_declared_size.xlsx", ["zip_bomb_declared_size.xlsx"]),
    ("trf/letters_in_rating.trf", ["letters_in_rating.trf:6"]),
    ("trf/rating_out_of_range.trf", ["rating_out_of_range.trf:6: player 1 (Alpha, Ann): rating "
                                     "9999 is not a rating (expected 0 to 3500)"]),
    ("trf/opponent_not_in_file.trf", ["opponent_not_in_file.trf"]),
], ids=["truncated-crosstable", "foreign-html", "xlsx-not-zip", "xlsx-zip-bomb",
        "trf-letters", "trf-rating-out-of-range", "trf-missing-opponent"])
@pytest.mark.parametrize("command", ["import", "report"])
def test_bad_tournament_files(run_cli, fixtures_dir, tmp_path, fixture, words, command):
    out = tmp_path / "out"
    res = run_cli(command, str(fixtures_dir / fixture), "--out", str(out))
    assert_refused(res, out, *words)


def test_fide_list_broken_lines_are_skipped_and_reported(run_cli, fixtures_dir, tmp_path):
    out = tmp_path / "out"
    res = run_cli("report", str(fixtures_dir / "sample_open.trf"), "--out", str(out),
                  "--ratings-list", str(fixtures_dir / "fide-list" / "foa_broken_lines.txt"))
    assert res.code == 0, res
    assert "foa_broken_lines.txt:6: line has 170 characters" in res.stderr
    assert "line skipped" in res.stderr
    assert (out / "index.html").is_file()


def test_fide_list_entity_expansion_is_refused(run_cli, fixtures_dir, tmp_path):
    out = tmp_path / "out"
    res = run_cli("report", str(fixtures_dir / "sample_open.trf"), "--out", str(out),
                  "--ratings-list", str(fixtures_dir / "fide-list" / "xml_billion_laughs.xml"))
    assert_refused(res, out, "xml_billion_laughs.xml", "entity")


def test_fide_list_zip_bomb_is_refused(run_cli, fixtures_dir, tmp_path):
    # A zip whose member declares far more than the bound: refused before it is unpacked.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("players_list_foa.txt", b"0" * 1024)
    data = bytearray(buf.getvalue())
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = (4 * 1024**3 - 1).to_bytes(4, "little")  # 4 GiB
    bomb = tmp_path / "players_list.zip"
    bomb.write_bytes(bytes(data))
    out = tmp_path / "out"
    res = run_cli("period", str(fixtures_dir / "sample_open.trf"), "--period", "2026-11",
                  "--ratings-list", str(bomb), "--store", str(tmp_path / "r.sqlite"),
                  "--out", str(out))
    assert_refused(res, out, "players_list.zip")
