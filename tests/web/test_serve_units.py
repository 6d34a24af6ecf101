"""The server's parts on their own: keys, names, the shared session and fetches, the kept
reports, the policy, errors, and jobs stopped at their time limit."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from datetime import date
from pathlib import Path

import pytest
from loopback import ChessResults, Reply
from serving import TNR, serve_fixtures

from importer.errors import FetchError, InputError, NoSuchTournament, RefusedFetch
from importer.net.http import make_session
from importer.net.urls import Ref
from reports.render.html import environment
from reports.settings import ReportSettings, SettingError
from reports.web.jobs import Runner
from reports.web.keys import link_key, parse_link_key
from reports.web.problems import Problem, for_people, problem
from reports.web.security import content_security_policy, script_sources, style_sources
from reports.web.service import Config, Fetcher, SingleFlight, Store
from reports.web.uploads import display_name


@pytest.mark.parametrize(("ref", "options", "focus", "key"), [
    (Ref("1452107"), ReportSettings(), None, "1452107"),
    (Ref("1452107", snr=81, art=9), ReportSettings(), None, "1452107-c81"),
    (Ref("7"), ReportSettings(system="elo", player="x", k=30, on=date(2026, 5, 1)), 12,
     "7-elo-p12-k30-d20260501"),
])
def test_link_keys_say_everything_and_read_back(ref, options, focus, key):
    assert link_key(ref, options, focus) == key
    back_ref, back_options, back_focus = parse_link_key(key)
    assert (back_ref.tnr, back_ref.snr, back_focus) == (ref.tnr, ref.snr, focus)
    assert (back_options.system, back_options.k, back_options.on) == (
        options.system, options.k, options.on)


@pytest.mark.parametrize("key", ["", "x1", "1-fide", "1-k20", "1-k0", "1-k101", "1-p3-elo",
                                 "1-d20261301", "1-q5", "1-p", "1-c1-c2", "u12345",
                                 "1-" + "9" * 9, "../etc"])
def test_other_keys_are_no_link_keys(key):
    assert parse_link_key(key) is None


def test_report_settings_are_checked_in_words_for_people():
    assert ReportSettings.from_fields({"system": "Elo", "k": "30", "date": "2026-05-01",
                                       "player": " -5 "}) == \
        ReportSettings("elo", "-5", 30, date(2026, 5, 1))
    assert ReportSettings.from_fields({"system": " ", "k": ""}) == ReportSettings()
    for fields, message in (
            ({"k": "0"}, "K 0: expected a whole number from 1 to 100"),
            ({"k": "x"}, "K 'x': expected a whole number from 1 to 100"),
            ({"date": "tomorrow"}, "date 'tomorrow': expected a date YYYY-MM-DD"),
            ({"system": "nope"}, "rating system 'nope': choose one of fide, elo, ukd, dwz, ecf")):
        with pytest.raises(SettingError) as caught:
            ReportSettings.from_fields(fields)
        assert str(caught.value) == message


def test_the_command_line_gives_the_same_words(run_cli):
    for args, message in ((["--k", "0"], "K 0: expected a whole number from 1 to 100"),
                          (["--date", "x"], "date 'x': expected a date YYYY-MM-DD"),
                          (["--system", "nope"],
                           "rating system 'nope': choose one of fide, elo, ukd, dwz, ecf")):
        result = run_cli("report", str(Path(__file__).parents[2] / "fixtures" / "sample_open.trf"), *args)
        assert result.code == 2 and message in result.stderr


@pytest.mark.parametrize(("raw", "shown"), [
    ("results.trf", "results.trf"), ("../../etc/passwd", "passwd"), ("C:\\x\\y.xlsx", "y.xlsx"),
    ("<b>x<i>.trf", "_b_x_i_.trf"), ("x</b>.trf", "b_.trf"), ("..", "upload"), ("", "upload"),
    (" .hidden", "hidden"),
    ("a" * 300, "a" * 100), ("тур.trf", "тур.trf"), ("a\x00b", "a_b")])
def test_display_names_are_plain_words(raw, shown):
    assert display_name(raw) == shown


def test_single_flight_shares_one_call_and_its_failure():
    flight: SingleFlight[str, int] = SingleFlight()
    calls = []
    gate = threading.Event()

    def slow() -> int:
        calls.append(1)
        gate.wait(5)
        return 42

    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(flight.run("k", slow)))
               for _ in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    gate.set()
    for t in threads:
        t.join(5)
    assert calls == [1] and results == [42] * 8
    with pytest.raises(ValueError, match="once"):
        flight.run("k", lambda: int("once"))
    assert flight.run("k", lambda: 7) == 7  # a finished call is not kept


def test_store_expires_and_forgets_the_least_recently_used():
    store: Store[int] = Store(2)
    store.put("a", 1, 60)
    store.put("b", 2, 60)
    assert store.get("a") == 1
    store.put("c", 3, 60)
    assert (store.get("a"), store.get("b"), store.get("c")) == (1, None, 3)
    store.put("d", 4, -1)
    assert store.get("d") is None


def test_words_for_pages():
    assert for_people("a - b -- c") == "a - b -- c"
    # an option only named aside is left out: a page cannot take it
    assert for_people("t1 was already rated in 2025-12: leave it out of 2026-01, or move its "
                      "rating here (--rerate)") == ("t1 was already rated in 2025-12: leave it "
                                                   "out of 2026-01, or move its rating here")
    from rating.errors import RatingError

    assert problem(RatingError("period 2025-11 is older than the newest period in the rating "
                               "register, 2025-12: it is computed again only when asked to "
                               "(--replace)")) == (
        400, "period 2025-11 is older than the newest period in the rating register, "
             "2025-12: it is computed again only when asked to")


def test_errors_become_one_line_and_a_status():
    assert problem(NoSuchTournament("u", "no such tournament (HTTP 404)")) == (
        404, "u: no such tournament (HTTP 404)")
    assert problem(FetchError("https://chess-results.com/tnr1.aspx?lan=1&zeilen=99999",
                              "[Errno -2] Name or service not known")) == (
        502, "chess-results.com could not be reached: try again in a while, or save the page in "
             "your browser and upload it")  # no error number, no internal address
    assert problem(FetchError("u", "HTTP 503", status=503)) == (
        502, "chess-results.com did not give the page (it answered 503): try again in a while, "
             "or save the page in your browser and upload it")
    assert problem(RefusedFetch("https://chess-results.com/tnr1.aspx?lan=1",
                                "refusing redirect to evil.example")) == (
        502, "refusing redirect to evil.example")  # fiderate's own words, without the address
    assert problem(InputError("bad\nline", source="f.trf")) == (400, "f.trf: bad line")
    assert problem(Problem("too big", 413)) == (413, "too big")
    status, line = problem(RuntimeError("boom\n  at x"))
    assert status == 500 and line == "internal error in fiderate (RuntimeError: boom at x); " \
        "please report it"
    assert problem(MemoryError())[0] == 422


def test_the_policy_allows_exactly_the_templates_inline_scripts_and_styles():
    env = environment()
    scripts = set(env.list_templates(extensions=["js"]))
    assert {"sort.js", "drop.js"} <= scripts
    styles = 0
    for name in env.list_templates(extensions=["html"]):
        source = env.loader.get_source(env, name)[0]
        for body in re.findall(r"<script>(.*?)</script>", source, re.DOTALL):
            included = re.fullmatch(r'\{% include "([\w.]+\.js)" %\}', body)
            assert included and included.group(1) in scripts, f"{name}: inline script {body!r}"
        for body in re.findall(r"<style>(.*?)</style>", source, re.DOTALL):
            styles += 1
            assert "{{" not in body and "{%" not in body, f"{name}: template code in <style>"
    assert len(script_sources().split()) == len(scripts)
    assert len(style_sources().split()) == styles >= 2
    policy = content_security_policy()
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert f"script-src {script_sources()};" in policy
    assert f"style-src {style_sources()};" in policy
    # the report's own pages allow their sorting script by the same hash
    assert env.globals["script_src"] in script_sources()


def test_a_job_over_its_time_limit_is_stopped():
    runner = Runner(limit=0.5)
    start = time.monotonic()
    with pytest.raises(Problem, match=r"longer than 0\.5 seconds") as caught:
        runner.run(time.sleep, 30)
    assert caught.value.status == 422 and time.monotonic() - start < 10
    assert runner.run(divmod, 7, 2) == (3, 1)
    with pytest.raises(Problem, match="ValueError") as bug:
        runner.run(int, "x")
    assert bug.value.status == 500


def test_one_host_gets_one_request_at_a_time_whatever_the_threads():
    delay = 0.3
    with ChessResults() as site:
        for i in range(4):
            site.route(f"/p{i}", "<html>x</html>")
        session = make_session(cache=False, delay=delay, base_url=site.url)
        start = time.monotonic()
        threads = [threading.Thread(target=session.get, args=(f"{site.url}/p{i}",))
                   for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert site.count() == 4
        assert time.monotonic() - start >= 3 * delay * 0.95  # spaced, not all at once


def test_users_asking_for_one_tournament_together_share_one_fetch(tmp_path):
    with ChessResults() as site:
        serve_fixtures(site)
        ranking = site._pick("GET", f"/tnr{TNR}.aspx", {"art": "0"})
        site.page(TNR, art=0, body=Reply(200, ranking.body, fault="stall", stall=0.5))
        fetcher = Fetcher(Config(base_url=site.url, delay=0,
                                 cache_path=str(tmp_path / "http.sqlite")))
        pages: list[int] = []
        threads = [threading.Thread(target=lambda: pages.append(len(fetcher.fetch(Ref(TNR)))))
                   for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert pages == [2] * 6
        assert site.count(f"/tnr{TNR}.aspx") == 2  # one starting rank, one crosstable
        fetcher.fetch(Ref(TNR))
        assert site.count(f"/tnr{TNR}.aspx") == 2  # then the HTTP cache answers
        with pytest.raises(Problem, match="not a chess-results link"):
            fetcher.ref(f"http://127.0.0.1:1/tnr{TNR}.aspx")
        assert fetcher.ref(f"{site.url}/tnr{TNR}.aspx").tnr == TNR


def _call(app, method: str, path: str, query: bytes = b"") -> tuple[int, dict, str]:
    """One request straight into the ASGI application: status, headers, body."""
    import asyncio

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query, "root_path": "", "headers": [(b"host", b"test")],
             "client": ("127.0.0.1", 1), "server": ("test", 80)}
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:]).decode()


def test_a_bug_is_one_line_and_500(monkeypatch):
    from reports.web import pages
    from reports.web.app import create_app

    def broken(_cls, _fields):
        raise RuntimeError("boom")

    def broken2():
        raise RuntimeError("bust")

    monkeypatch.setattr(ReportSettings, "from_fields", classmethod(broken))
    app = create_app()
    status, headers, body = _call(app, "POST", "/report")
    assert status == 500
    assert "internal error in fiderate (RuntimeError: boom); please report it" in body
    assert "Traceback" not in body and "File " not in body
    assert headers["x-content-type-options"] == "nosniff"
    status, _, body = _call(app, "GET", "/api/calc", b"rating=1500&table=maybe")
    assert status == 400 and json.loads(body) == {
        "error": "'maybe' for the worked examples: expected yes or no", "code": "bad-value",
        "field": "table"}
    monkeypatch.setattr(pages, "_systems", broken2)  # the error page itself fails
    status, _, body = _call(app, "GET", "/")
    assert (status, body) == (500, "internal error in fiderate (RuntimeError: bust); "
                                   "please report it")


def test_a_taken_port_is_one_line(run_cli):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        res = run_cli("serve", "--port", str(port))
    assert res.code == 2
    assert res.stderr == (f"fiderate: error: cannot listen on 127.0.0.1 port {port}: "
                          "Address already in use\n")


@pytest.mark.parametrize(("text", "origin"), [
    ("http://127.0.0.1:8000", ("http", "127.0.0.1", 8000)),
    ("HTTPS://Ratings.Example", ("https", "ratings.example", 443)),
    ("https://ratings.example:443/", ("https", "ratings.example", 443)),
    ("http://[::1]:8080", ("http", "::1", 8080)),
    ("null", None), ("", None), ("ratings.example", None), ("ftp://ratings.example", None),
    ("https://ratings.example/x", None), ("https://u:p@ratings.example", None),
    ("https://ratings.example:99999", None), ("https://ratings.example?x", None),
])
def test_origins_are_read_strictly(text, origin):
    from reports.web.security import parse_origin

    assert parse_origin(text) == origin


def _scope(method: str, *headers: tuple[str, str]) -> dict:
    return {"type": "http", "method": method, "scheme": "http", "server": ("127.0.0.1", 8000),
            "headers": [(k.encode(), v.encode()) for k, v in headers]}


def test_cross_site_says_which_requests_to_refuse():
    from reports.web.security import cross_site

    host = ("host", "127.0.0.1:8000")
    assert cross_site(_scope("GET", ("origin", "http://evil.example"))) is None
    assert cross_site(_scope("POST", host)) is None
    assert cross_site(_scope("POST", host, ("origin", "http://127.0.0.1:8000"))) is None
    assert cross_site(_scope("POST", ("origin", "http://127.0.0.1:8000"))) is None  # no Host
    assert cross_site(_scope("POST", host, ("origin", "http://evil.example"))) == (
        "Origin 'http://evil.example'")
    assert cross_site(_scope("POST", host, ("sec-fetch-site", "cross-site"))) == (
        "Sec-Fetch-Site 'cross-site'")
    twice = _scope("POST", host, ("origin", "http://127.0.0.1:8000"),
                   ("origin", "http://127.0.0.1:8000"))
    assert cross_site(twice) == "Origin 'http://127.0.0.1:8000' and 1 more"
    assert cross_site(_scope("PUT", host, ("origin", "http://evil.example"))) is not None
    assert cross_site(_scope("POST", host, ("origin", "null"))) == "Origin 'null'"
    assert cross_site(_scope("POST", host, ("origin", "null"), ("sec-fetch-site", "same-origin"))
                      ) is None  # the browser vouches for a page hiding its origin
    assert cross_site(_scope("POST", host, ("origin", "null"), ("sec-fetch-site", "cross-site")))
    public = [("https", "ratings.example", 443)]
    assert cross_site(_scope("POST", host, ("origin", "https://ratings.example")), public) is None
    assert cross_site(_scope("POST", host, ("origin", "http://127.0.0.1:8000")), public)


def test_the_write_token_is_compared_whole():
    from reports.web.security import bearer_token, token_matches

    assert token_matches("club-secret-1234", "club-secret-1234")
    for given in ("club-secret-123", "club-secret-12345", "", None, "CLUB-SECRET-1234", "é"):
        assert not token_matches("club-secret-1234", given)
    assert not token_matches(None, "anything") and not token_matches("", "")
    assert bearer_token(None) is None
    assert bearer_token("Bearer  abc ") == "abc" and bearer_token("bearer abc") == "abc"
    assert bearer_token("Basic abc") == "" and bearer_token("abc") == ""


def test_the_write_token_is_never_in_the_config_s_repr():
    config = Config(store="r.sqlite", write_token="club-secret-1234")
    assert "club-secret-1234" not in repr(config)


def test_jobs_run_under_a_long_temporary_folder(tmp_path):
    """The fork server's Unix socket cannot live under a long TMPDIR (at most ~104 bytes)."""
    import subprocess
    import sys

    deep = tmp_path / ("a-long-folder-name-" * 6)
    deep.mkdir()
    code = ("from reports.web.jobs import Runner\n"
            "print(Runner(workers=1).run(len, 'abc'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "TMPDIR": str(deep)}, timeout=60, check=False)
    assert (out.returncode, out.stdout.strip()) == (0, "3"), out.stderr
