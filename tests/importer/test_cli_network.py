"""``fiderate import NUMBER --base-url http://127.0.0.1:PORT`` through the loopback double.

Every fault must end in a one-line error, exit code 2 and nothing written to --out; the happy
paths must fetch at most three pages and a cached re-import none.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from loopback import ChessResults, Reply

TNR = "1452107"
PATH = f"/tnr{TNR}.aspx"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path):
    """No proxy for 127.0.0.1, and a private HTTP cache folder."""
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FIDERATE_BASE_URL", raising=False)


@pytest.fixture
def site():
    with ChessResults() as double:
        yield double


@pytest.fixture
def british(realdata: Path) -> dict[str, bytes]:
    d = realdata / "chess-results"
    return {"start": (d / "en_swiss_startingrank_art0_british2026.html").read_bytes(),
            "final": (d / "en_swiss_crosstable_art5_final_british2026.html").read_bytes(),
            "live": (d / "british2026_champ_r9.html").read_bytes()}


def fetch(run_cli, site, out, *extra):
    return run_cli("import", TNR, "--base-url", site.url, "--delay", "0", "--out", str(out),
                   *extra)


def assert_clean_failure(res, out, *words):
    assert res.code == 2, res
    lines = res.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 3, res.stderr
    assert "Traceback" not in res.stderr
    for word in words:
        assert word in res.stderr
    assert not out.exists()


def test_import_by_number_fetches_three_pages_then_none_from_cache(run_cli, site, british,
                                                                   tmp_path):
    site.page(TNR, art=0, body=british["start"])
    site.page(TNR, art=5, body=british["final"])
    site.page(TNR, art=2, body=british["live"], rd=9)
    res = fetch(run_cli, site, tmp_path / "out")
    assert res.code == 0, res
    assert site.count(PATH) == 3
    assert "108 players" in res.stderr
    players = (tmp_path / "out" / "players.csv").read_text().splitlines()
    assert len(players) == 109
    again = fetch(run_cli, site, tmp_path / "out2")
    assert again.code == 0, again
    assert site.count(PATH) == 3  # a cached re-import makes no request
    assert (tmp_path / "out" / "results.csv").read_bytes() == \
        (tmp_path / "out2" / "results.csv").read_bytes()


def test_503_then_429_then_success(run_cli, site, british, tmp_path):
    site.page(TNR, art=0, body=british["start"])
    site.page(TNR, art=5, body=[Reply(503), Reply(429, headers={"Retry-After": "1"}),
                                Reply(200, british["final"])])
    site.page(TNR, art=2, body=british["live"], rd=9)
    res = fetch(run_cli, site, tmp_path / "out", "--no-cache")
    assert res.code == 0, res
    assert site.count(PATH, art="5") == 3  # at most 3 tries per page
    assert (tmp_path / "out" / "games.csv").is_file()


def test_stall_gives_up_within_the_retry_budget(run_cli, site, tmp_path):
    """A page that stalls for 25 s: two reads of 0.2 s each, then one clean error — never the
    stall itself (the retry budget is the same at any --timeout)."""
    site.page(TNR, art=0, body=Reply.stalled(25, "<html>late</html>"))
    start = time.monotonic()
    res = fetch(run_cli, site, tmp_path / "out", "--timeout", "0.2", "--no-cache")
    assert time.monotonic() - start < 5
    assert_clean_failure(res, tmp_path / "out", "timed out after 2 tries (read timeout 0.2 s)")
    assert site.count(PATH) == 2


def test_reset_mid_body_is_refused(run_cli, site, british, tmp_path):
    site.page(TNR, art=0, body=Reply.reset(british["start"]))
    res = fetch(run_cli, site, tmp_path / "out", "--no-cache")
    assert_clean_failure(res, tmp_path / "out", "reset")


def test_truncated_body_is_refused(run_cli, site, british, tmp_path):
    site.page(TNR, art=0, body=british["start"])
    site.page(TNR, art=5, body=Reply.truncated(british["final"]))
    res = fetch(run_cli, site, tmp_path / "out", "--no-cache")
    assert_clean_failure(res, tmp_path / "out", "truncated")


def test_redirect_to_another_host_is_refused(run_cli, site, tmp_path):
    site.page(TNR, art=0, body=Reply.redirect("http://evil.example/tnr1452107.aspx"))
    res = fetch(run_cli, site, tmp_path / "out", "--no-cache")
    assert_clean_failure(res, tmp_path / "out", "refusing redirect to evil.example")


def test_unknown_tournament(run_cli, site, tmp_path):
    res = fetch(run_cli, site, tmp_path / "out", "--no-cache")
    assert_clean_failure(res, tmp_path / "out", "no such tournament")
