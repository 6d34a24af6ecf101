"""How ``fiderate serve`` sends its answers (a real server process on 127.0.0.1): at once
(``TCP_NODELAY``), compressed (HTML, JSON, CSV; not the zip), with the right
``Cache-Control`` for each route, redirects by path alone (never the ``Host`` sent), and one
access-log line per request that never holds the write token."""

from __future__ import annotations

import re
import socket
import statistics
import time
from pathlib import Path

import pytest
import requests
from loopback import ChessResults
from serving import ROOT, TNR, Served, serve_fixtures
from test_serve_period import TOKEN, post_period

from reports.web.access import REDACTED, combined_line

pytestmark = pytest.mark.slow  # server processes

TRF = ROOT / "fixtures" / "sample_open.trf"
STATIC = "public, max-age=300"
LINK = "public, max-age=60"
COMBINED = re.compile(r'(?P<host>\S+) - - \[(?P<time>\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d '
                      r'[+-]\d{4})\] "(?P<request>(?:[^"\\]|\\.)*)" (?P<status>\d{3}) (?P<bytes>\d+|-) '
                      r'"(?P<referer>(?:[^"\\]|\\.)*)" "(?P<agent>(?:[^"\\]|\\.)*)"')


@pytest.fixture(scope="module")
def site():
    with ChessResults() as double:
        serve_fixtures(double)
        yield double


@pytest.fixture(scope="module")
def server(tmp_path_factory, site):
    tmp = tmp_path_factory.mktemp("answers")
    with Served(tmp, "--store", str(tmp / "register.sqlite"), base_url=site.url,
                env={"FIDERATE_WRITE_TOKEN": TOKEN}) as s:
        assert requests.post(s.url + "report", data={"source": TNR}, timeout=30).ok
        yield s


@pytest.fixture(scope="module")
def upload(server):
    r = requests.post(server.url + "report", files={"files": (TRF.name, TRF.read_bytes())},
                      timeout=30)
    assert r.status_code == 200
    return r.url


def access_lines(server: Served) -> list[re.Match[str]]:
    return [m for m in map(COMBINED.fullmatch, server.log().splitlines()) if m]


def logged(server: Served, request: str) -> re.Match[str]:
    """The last access-log line of *request* (written just after its answer went out)."""
    for _ in range(100):
        found = [m for m in access_lines(server) if m["request"] == request]
        if found:
            return found[-1]
        time.sleep(0.02)
    raise AssertionError(f"{request!r} not in the log: {server.log()[-2000:]}")


def test_the_listening_socket_and_its_connections_send_at_once():
    from reports.web.server import listen

    sock = listen("127.0.0.1", 0)
    client = socket.create_connection(sock.getsockname())
    accepted, _ = sock.accept()
    try:
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        for s in (client, accepted, sock):
            s.close()


def test_small_answers_on_a_kept_alive_connection_are_not_held_back(server):
    """Without TCP_NODELAY each answer on a kept-alive connection waited ~40 ms for the
    client's delayed acknowledgement."""
    session = requests.Session()
    session.get(server.url + "healthz", timeout=5)
    took = []
    for path in ("healthz", "", "calc") * 10:
        start = time.perf_counter()
        assert session.get(server.url + path, timeout=5).status_code == 200
        took.append(time.perf_counter() - start)
    assert statistics.median(took) < 0.02, sorted(took)


@pytest.mark.parametrize(("path", "kind"), [
    ("", "text/html"), ("calc", "text/html"), ("period", "text/html"),
    ("api/openapi.json", "application/json"), (f"report/{TNR}/", "text/html"),
    (f"report/{TNR}/rating_players.csv", "text/csv"), ("no/such/page", "text/html"),
    (f"api/report?source={TNR}", "application/json"),
])
def test_text_answers_are_compressed(server, path, kind):
    r = requests.get(server.url + path, headers={"Accept-Encoding": "gzip"}, timeout=30)
    assert r.headers["content-type"].startswith(kind)
    assert r.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["vary"]
    assert int(r.headers["content-length"]) < len(r.content) * 0.7  # decoded by requests
    plain = requests.get(server.url + path, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert "content-encoding" not in plain.headers
    assert plain.content == r.content


def test_the_zip_is_not_compressed_again(server, upload):
    for url in (upload + "report.zip", f"{server.url}report/{TNR}/report.zip"):
        r = requests.get(url, headers={"Accept-Encoding": "gzip"}, timeout=30)
        assert r.headers["content-type"] == "application/zip"
        assert "content-encoding" not in r.headers
        assert r.content.startswith(b"PK")


def test_an_upload_compressed_twice_is_the_same(server, upload):
    """An upload's pages are compressed as they go out (never kept compressed)."""
    first = requests.get(upload, headers={"Accept-Encoding": "gzip"}, timeout=10)
    again = requests.get(upload, headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert first.headers["content-encoding"] == "gzip" and first.content == again.content


@pytest.mark.parametrize(("path", "expected"), [
    ("", STATIC), ("calc", STATIC), ("calc?rating=1500&opponent=1600", STATIC),
    ("api/calc?rating=1500&opponent=1600&result=win", STATIC), ("api/openapi.json", STATIC),
    (f"report/{TNR}/", LINK), (f"report/{TNR}/player-3.html", LINK),
    (f"report/{TNR}/rating_players.csv", LINK), (f"report/{TNR}/report.zip", LINK),
    ("healthz", "no-store"), ("period", "no-store"), ("no/such/page", "no-store"),
    ("calc?rating=x", "no-store"), ("api/calc?rating=x", "no-store"),
    (f"api/report?source={TNR}", "no-store"), ("report/uNoSuchKey/", "no-store"),
])
def test_each_route_says_how_long_it_may_be_kept(server, path, expected):
    r = requests.get(server.url + path, timeout=30)
    assert r.headers["cache-control"] == expected, (path, r.status_code)


def test_nothing_of_an_upload_or_a_period_is_ever_kept(server, upload):
    for name in ("", "player-3.html", "rating_players.csv", "report.zip"):
        assert requests.get(upload + name, timeout=10).headers["cache-control"] == "no-store"
    posted = requests.post(server.url + "report", files={"files": (TRF.name, TRF.read_bytes())},
                           allow_redirects=False, timeout=30)
    assert posted.status_code == 303 and posted.headers["cache-control"] == "no-store"
    period = post_period(server)
    assert period.status_code == 200 and period.history[0].headers["cache-control"] == "no-store"
    assert period.headers["cache-control"] == "no-store"
    for name in ("period_players.csv", "period_games.csv"):
        assert requests.get(period.url + name, timeout=10).headers["cache-control"] == "no-store"
    api = requests.post(server.url + "api/report", files={"files": (TRF.name, TRF.read_bytes())},
                        timeout=30)
    assert api.status_code == 200 and api.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(("path", "location"), [
    ("calc/", "/calc"), ("period/", "/period"), ("calc/?rating=1500", "/calc?rating=1500"),
    ("healthz/", "/healthz"), (f"report/{TNR}", f"/report/{TNR}/"),
    (f"report/{TNR}/player/3", f"/report/{TNR}/player-3.html"),
])
def test_redirects_are_by_path_never_the_host_sent(server, path, location):
    r = requests.get(server.url + path, headers={"Host": "evil.example"}, allow_redirects=False,
                     timeout=10)
    assert r.status_code in (307, 308) and r.headers["location"] == location
    assert "evil" not in r.text


def test_no_redirect_leaves_the_server(server):
    for path in ("//evil.example/", "//evil.example", "/%2fevil.example/"):
        sock = socket.create_connection(("127.0.0.1", int(server.url.rstrip("/").rsplit(":", 1)[1])))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                     .encode())
        sock.settimeout(5)
        head = sock.recv(65536).split(b"\r\n\r\n", 1)[0].lower()
        sock.close()
        assert not re.search(rb"\r\nlocation: *//", head), (path, head)


def test_every_request_is_one_combined_line(server):
    requests.get(server.url + "calc?rating=1500&opponent=1600&result=win", timeout=10,
                 headers={"Referer": "http://127.0.0.1/x", "User-Agent": 'ua "quoted"\tx'})
    line = logged(server, "GET /calc?rating=1500&opponent=1600&result=win HTTP/1.1")
    assert line["host"] == "127.0.0.1"
    assert line["status"] == "200" and int(line["bytes"]) > 1000
    assert line["referer"] == "http://127.0.0.1/x"
    assert line.group(0).endswith('"ua \\"quoted\\"\\x09x"')


def test_the_write_token_never_reaches_the_log(server):
    """The token in the period form's field, in an Authorization header, in a query (a
    parameter named token, or under any name), in a path and in a Referer: never logged."""
    r = post_period(server, token=TOKEN, headers={"Authorization": f"Bearer {TOKEN}",
                                                  "Referer": f"{server.url}period?token={TOKEN}"})
    assert r.status_code == 200 and "Saved to this server" in r.text
    requests.get(server.url + "period", params={"token": TOKEN, "x": TOKEN}, timeout=10)
    requests.get(server.url + f"period/{TOKEN}/", timeout=10)
    requests.get(server.url + "period", params={"access_key": "s3cr3t-value", "list": "rapid"},
                 timeout=10)
    requests.get(server.url + "healthz?agent", timeout=10, headers={"User-Agent": TOKEN})
    assert logged(server, "GET /healthz?agent HTTP/1.1")["agent"] == REDACTED
    log = server.log()
    assert TOKEN not in log
    assert TOKEN.replace("-", "%2D") not in log
    assert "s3cr3t-value" not in log
    assert f"GET /period?token={REDACTED}&x={REDACTED} HTTP/1.1" in log
    assert f"GET /period?access_key={REDACTED}&list=rapid HTTP/1.1" in log
    posted = logged(server, "POST /period HTTP/1.1")
    assert posted["referer"] == f"{server.url}period?token={REDACTED}"


@pytest.mark.parametrize("args", [["--access-log", "FILE"], ["--no-access-log"]])
def test_the_access_log_goes_to_a_file_or_nowhere(tmp_path, args):
    file = tmp_path / "access.log"
    with Served(tmp_path, *[str(file) if a == "FILE" else a for a in args]) as server:
        requests.get(server.url + "healthz", timeout=10)
        time.sleep(0.1)
        assert "GET /healthz" not in server.log()
    if args[0] == "--access-log":
        (line,) = file.read_text().splitlines()
        assert COMBINED.fullmatch(line)["request"] == "GET /healthz HTTP/1.1"
    else:
        assert not file.exists()


def test_an_access_log_that_cannot_be_written_is_one_line(run_cli, tmp_path):
    res = run_cli("serve", "--port", "0", "--access-log", str(tmp_path / "no" / "such" / "x.log"))
    assert res.code == 2 and "cannot write the access log" in res.stderr
    res = run_cli("serve", "--port", "0", "--access-log", "x.log", "--no-access-log")
    assert res.code == 2 and "not both" in res.stderr


def test_combined_lines_escape_what_they_hold():
    scope = {"type": "http", "client": ("10.0.0.1", 5), "method": "GET", "http_version": "1.1",
             "raw_path": b'/a"b\\zzsecretzz\xc3\xa9', "query_string": b"password=x&q=1",
             "headers": [(b"user-agent", b"a\x01b"), (b"referer", b"http://x/?auth=y")]}
    line = combined_line(scope, "01/Jan/2026:00:00:00 +0000", 200, 0, secrets=["zzsecretzz"])
    assert line == ('10.0.0.1 - - [01/Jan/2026:00:00:00 +0000] "GET /a\\"b\\\\[redacted]'
                    f'\\xc3\\xa9?password={REDACTED}&q=1 HTTP/1.1" 200 - '
                    f'"http://x/?auth={REDACTED}" "a\\x01b"')


def test_the_access_log_time_is_the_request_time(server):
    from datetime import datetime

    before = time.time()
    requests.get(server.url + "healthz?now", timeout=10)
    stamp = logged(server, "GET /healthz?now HTTP/1.1")["time"]
    assert abs(datetime.strptime(stamp, "%d/%b/%Y:%H:%M:%S %z").timestamp() - before) < 3


def test_readme_documents_what_is_tested_here():
    readme = (Path(ROOT) / "README.md").read_text(encoding="utf-8")
    for words in ("--access-log", "--no-access-log", "combined", "no-store", "max-age=300",
                  "--header-timeout", "--max-client-connections", "gzip"):
        assert words in readme, words
