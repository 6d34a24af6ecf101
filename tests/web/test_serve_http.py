"""``fiderate serve`` over HTTP: a real server process on 127.0.0.1, the chess-results double
and a trap listener; every page and API route, and that the pages and files are the static
report's own."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from pathlib import Path

import pytest
import requests
from loopback import ChessResults
from serving import CR, LIVE_TNR, ROOT, TNR, Served, Trap, serve_fixtures

pytestmark = pytest.mark.slow  # server processes

TRF = ROOT / "fixtures" / "sample_open.trf"
SITE_BLOCK = re.compile(r'<div class="site(?:-end)?">.*?</div>\n', re.DOTALL)
"""The server's lines around a page's own content (its head, and the downloads after it)."""


@pytest.fixture(scope="module")
def trap():
    with Trap() as t:
        yield t


@pytest.fixture(scope="module")
def site():
    with ChessResults() as double:
        serve_fixtures(double)
        yield double


@pytest.fixture(scope="module")
def server(tmp_path_factory, site, trap):
    with Served(tmp_path_factory.mktemp("serve"), base_url=site.url) as s:
        yield s
    assert trap.connections == 0


def upload(server, *paths: Path, **fields: str) -> requests.Response:
    files = [("files", (p.name, p.read_bytes())) for p in paths]
    return requests.post(server.url + "report", files=files, data=fields, timeout=30)


def error_line(html: str) -> str:
    found = re.findall(r'<p class="site-error" role="alert">(.*?)</p>', html, re.DOTALL)
    assert len(found) == 1, html
    return found[0]


def test_starts_in_under_a_second_and_answers_health(server):
    assert server.started_in < 1.0, server.started_in
    r = requests.get(server.url + "healthz", timeout=5)
    assert r.status_code == 200 and r.json() == {"status": "ok"}


@pytest.mark.parametrize("path", ["", "calc", "period", "healthz", "api/openapi.json",
                                  "no/such/page", "report/unknown/", "api/calc?rating=x"])
def test_every_answer_has_the_security_headers(server, path):
    r = requests.get(server.url + path, timeout=10)
    csp = r.headers["content-security-policy"]
    script_src = re.search(r"script-src ([^;]+)", csp).group(1)
    assert "unsafe-inline" not in csp and "sha256-" in script_src
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"
    assert "Traceback" not in r.text


def test_the_form(server):
    r = requests.get(server.url, timeout=10)
    assert r.status_code == 200
    assert 'name="source"' in r.text and 'type="file"' in r.text and "multiple" in r.text
    for system in ("fide", "elo", "ukd"):
        assert f'value="{system}"' in r.text
    assert "--" not in re.sub(r"<style>.*?</style>|<script>.*?</script>", "", r.text, flags=re.S)


def test_an_uploaded_trf_is_the_static_report(server, run_cli, tmp_path, monkeypatch):
    r = upload(server, TRF)
    assert r.status_code == 200 and r.history[0].status_code == 303
    key = re.fullmatch(rf"{re.escape(server.url)}report/(u[\w-]+)/", r.url).group(1)
    monkeypatch.chdir(TRF.parent)
    assert run_cli("report", TRF.name, "--out", str(tmp_path / "out")).code == 0
    static = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    served_index = r.text
    assert SITE_BLOCK.sub("", served_index, count=2).encode() == static["index.html"]
    player = requests.get(r.url + "player-3.html", timeout=10)
    assert SITE_BLOCK.sub("", player.text, count=2).encode() == static["player-3.html"]
    for name in ("rating_players.csv", "rating_rounds.csv", "rating_tournament.csv"):
        got = requests.get(r.url + name, timeout=10)
        assert got.headers["content-type"].startswith("text/csv")
        assert got.content == static[name], name
    z = requests.get(r.url + "report.zip", timeout=10)
    assert z.headers["content-disposition"] == f'attachment; filename="fiderate-report-{key}.zip"'
    with zipfile.ZipFile(io.BytesIO(z.content)) as zf:
        zipped = {n.removeprefix("report/"): zf.read(n) for n in zf.namelist()}
    assert zipped == static  # every file, the .fiderate manifest too
    assert server.uploads_left() == []


def test_player_urls_redirect_to_the_player_page(server):
    index = upload(server, TRF).url
    key = index.rstrip("/").rsplit("/", 1)[1]
    r = requests.get(f"{server.url}report/{key}/player/5", timeout=10)
    assert r.url == index + "player-5.html" and r.status_code == 200
    assert requests.get(f"{server.url}report/{key}", timeout=10).url == index
    assert requests.get(index + "player-999.html", timeout=10).status_code == 404


def test_a_link_is_fetched_once_and_then_served_from_memory(server, site):
    before = site.count(f"/tnr{TNR}.aspx")
    r = requests.post(server.url + "report", data={"source": TNR}, timeout=30)
    assert r.status_code == 200 and r.url == f"{server.url}report/{TNR}/"
    assert "Fiderate Published Open 2026" in r.text
    assert site.count(f"/tnr{TNR}.aspx") - before == 2  # starting rank and crosstable
    for _ in range(3):
        again = requests.post(server.url + "report", data={
            "source": f"https://chess-results.com/tnr{TNR}.aspx?lan=1&art=1"}, timeout=30)
        assert again.url == r.url
    assert requests.get(r.url, timeout=10).text == r.text
    assert site.count(f"/tnr{TNR}.aspx") - before == 2
    assert 'http-equiv="refresh"' not in r.text  # finished: no reload


def test_options_make_their_own_stable_key(server, site):
    r = requests.post(server.url + "report", data={
        "source": TNR, "system": "elo", "player": "Cole", "k": "30"}, timeout=30)
    assert r.url == f"{server.url}report/{TNR}-elo-p3-k30/player-3.html"
    # the key alone rebuilds the same report (the pages come from the HTTP cache)
    direct = requests.get(f"{server.url}report/{TNR}-elo-p3-k30/player-3.html", timeout=30)
    assert direct.text == r.text
    fresh = requests.get(f"{server.url}report/{TNR}-k25/", timeout=30)
    assert fresh.status_code == 200 and "Cole, Cara" in fresh.text
    assert requests.get(f"{server.url}report/{TNR}-k20/", timeout=10).status_code == 404


def test_a_player_card_link_lands_on_that_player(server):
    card = f"https://chess-results.com/tnr{TNR}.aspx?lan=1&art=9&snr=3"
    r = requests.post(server.url + "report", data={"source": card}, timeout=30)
    assert r.url == f"{server.url}report/{TNR}-c3/player-3.html"
    assert "<h1>Cole, Cara</h1>" in r.text


def test_a_live_tournament_says_so_and_offers_a_refresh(server, site):
    r = requests.post(server.url + "report", data={"source": LIVE_TNR}, timeout=30)
    assert r.status_code == 200
    assert 'http-equiv="refresh"' not in r.text  # never a reload that loses the reader's place
    assert ("Round 4 is in progress: chess-results is read again at most every 5 minutes. "
            '<button type="submit" id="refresh">Refresh</button>') in r.text
    assert "connect-src 'self'" in r.headers["content-security-policy"]  # the refresh's fetch
    assert "round 4 in progress" in r.text  # the report's own line
    count = site.count(f"/tnr{LIVE_TNR}.aspx")
    assert count <= 3
    requests.get(r.url, timeout=10)  # a refresh: from memory, nothing fetched
    assert site.count(f"/tnr{LIVE_TNR}.aspx") == count


def test_api_report_by_link_and_by_upload(server):
    r = requests.get(server.url + "api/report", params={"source": TNR, "player": "Ashby"},
                     timeout=30)
    assert r.status_code == 200
    data = r.json()
    assert data["key"] == f"{TNR}-p1" and data["url"] == f"/report/{TNR}-p1/"
    assert data["tournament"]["name"] == "Fiderate Published Open 2026"
    assert data["rules"]["system"] == "fide" and data["rules"]["date"] == "2026-05-02"
    (ashby,) = data["players"]
    assert ashby["name"] == "Ashby, Alan" and ashby["change"] == "-0.90" and ashby["k"] == 10
    assert [rd["round"] for rd in ashby["rounds"]] == [1, 2, 3, 4]
    assert isinstance(data["warnings"], list)
    assert all(set(n) == {"text", "items", "players"} for n in data["notes"])
    assert all(set(w) == {"code", "message", "players", "round"} for w in data["warnings"])
    up = requests.post(server.url + "api/report", files=[("files", (TRF.name, TRF.read_bytes()))],
                       data={"system": "elo"}, timeout=30)
    assert up.status_code == 200, up.text
    body = up.json()
    assert body["key"].startswith("u") and body["rules"]["system"] == "elo"
    assert len(body["players"]) == 24
    text = requests.get(server.url + body["url"][1:] + "rating_players.csv", timeout=10).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["change"] or None for r in rows] == [p["change"] for p in body["players"]]


def test_api_calc_mirrors_calc_json(server, run_cli):
    args = ["--rating", "1500", "--opponent", "1600", "--result", "win", "--category", "junior",
            "--date", "2026-08-01"]
    cli = run_cli("calc", *args, "--json")
    assert cli.code == 0
    r = requests.get(server.url + "api/calc", params={
        "rating": 1500, "opponent": 1600, "result": "win", "category": "junior",
        "date": "2026-08-01"}, timeout=10)
    assert r.status_code == 200 and r.json() == json.loads(cli.stdout)
    games = requests.get(server.url + "api/calc", params=[
        ("rating", "1850"), ("k", "20"), ("game", "1900:1"), ("game", "unrated:0.5"),
        ("date", "2026-08-01")], timeout=10)
    several = run_cli("calc", "--rating", "1850", "--k", "20", "-g", "1900:1", "-g",
                      "unrated:0.5", "--date", "2026-08-01", "--json")
    assert games.json() == json.loads(several.stdout)


@pytest.mark.parametrize(("params", "cli", "field", "code", "options"), [
    ({"rating": "1500", "opponent": "1600"}, ["--rating", "1500", "--opponent", "1600"],
     "result", "missing", "--result"),
    ({"rating": "1500", "k": "20", "category": "junior", "opponent": "1600", "result": "w"},
     ["--rating", "1500", "--k", "20", "--category", "junior", "--opponent", "1600",
      "--result", "w"], "k", "conflict", "--k and --category"),
    ({"rating": "1500", "result": "maybe", "opponent": "1600"},
     ["--rating", "1500", "--result", "maybe", "--opponent", "1600"], "result", "bad-value",
     "--result"),
])
def test_api_calc_errors_are_the_command_line_s_words(server, run_cli, params, cli, field,
                                                      code, options):
    """The same words as the command line, which alone puts its options first; the API adds
    the field and a machine code."""
    r = requests.get(server.url + "api/calc", params=params, timeout=10)
    res = run_cli("calc", *cli, "--json")
    body = r.json()
    assert r.status_code == 400 and res.code == 2
    assert (body["field"], body["code"]) == (field, code) and "--" not in body["error"]
    assert res.stderr.startswith(f"fiderate: error: {options}: {body['error']}")


def _rows(html: str, table: str) -> list[list[str]]:
    """The cells of a table's body rows, header cells included."""
    body = re.search(rf'<table id="{table}".*?<tbody>(.*?)</tbody>', html, re.DOTALL).group(1)
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.DOTALL)]


def test_the_calculator_page_shows_the_calc_numbers(server, run_cli):
    r = requests.get(server.url + "calc", params={
        "rating": "1500", "opponent": "1600", "result": "win", "category": "junior",
        "date": "2026-08-01"}, timeout=10)
    assert r.status_code == 200
    cli = run_cli("calc", "--rating", "1500", "--opponent", "1600", "--result", "win",
                  "--category", "junior", "--date", "2026-08-01")
    by_result = re.findall(r"(win|draw|loss)\s+(\S+)\s+→ (\d+)", cli.stdout)
    assert by_result == [("win", "+25.60", "1526"), ("draw", "+5.60", "1506"),
                         ("loss", "-14.40", "1486")]
    # the README's figures (K 40 and 20, E 0.36 and 0.64 from table 8.1.2 at 100 points)
    assert _rows(r.text, "sides") == [
        ["Rating", "1500", "1600"], ["K", "40", "20"], ["Expected", "0.36", "0.64"],
        ["Score", "1", "0"], ["Change", "+25.60", "-12.80"], ["New rating", "1526", "1587"]]
    assert _rows(r.text, "outcomes") == [[name.capitalize(), change, new]
                                         for name, change, new in by_result]
    ids = re.findall(r' id="([^"]+)"', r.text)
    assert len(ids) == len(set(ids)), ids  # unique: a result never takes a control's name
    controls = re.findall(r'<(?:input|select|textarea) id="([^"]+)"', r.text)
    assert set(controls) <= set(re.findall(r'<label for="([^"]+)"', r.text))
    # the categories in words, with R24 8.3.3's K
    assert re.findall(r"<dt>(\w+): K (\d+)</dt>", r.text) == [
        ("New", "40"), ("Junior", "40"), ("Established", "20"), ("Master", "10")]
    several = requests.get(server.url + "calc", params={
        "rating": "1850", "k": "20", "games": "1900 1\n2010 ½\nunrated 1\n1700 l",
        "date": "2026-08-01"}, timeout=10)
    assert several.status_code == 200 and "not rated" in several.text
    # the README's four games: 0.43 + 0.29 + 0.70 expected; 20 × (2.5 − 1.42) = +1.60
    assert [row[3:] for row in _rows(several.text, "game-list")] == [
        ["0.43", "+11.40"], ["0.29", "+4.20"], ["", "not rated: opponent unrated"],
        ["0.70", "-14.00"]]
    assert re.findall(r"<dt>(Expected|Change)</dt><dd>([^<]*)</dd>", several.text) == [
        ("Expected", "1.42"), ("Change", "+1.60")]
    bad = requests.get(server.url + "calc", params={"rating": "1500", "games": "1900"},
                       timeout=10)
    assert bad.status_code == 400 and "game 1 (&#39;1900&#39;)" in error_line(bad.text)


@pytest.mark.parametrize(("source", "status", "words"), [
    ("http://127.0.0.1:22/", 400, "not a chess-results link or tournament number"),
    ("http://169.254.169.254/latest/meta-data/", 400, "not a chess-results link"),
    ("file:///etc/passwd", 400, "not a chess-results link"),
    ("/etc/passwd", 400, "not a chess-results link"),
    ("https://chess-results.com.evil.example/tnr1.aspx", 400, "not a chess-results link"),
    ("https://chess-results.com:22/tnr1.aspx", 400, "not a chess-results link"),
    ("999404", 404, "no such tournament"),
])
def test_links_to_anything_but_chess_results_are_refused(server, site, trap, source, status,
                                                         words):
    before = len(site.requests)
    r = requests.post(server.url + "report", data={"source": source}, timeout=30)
    assert r.status_code == status and words in error_line(r.text)
    api = requests.get(server.url + "api/report", params={"source": source}, timeout=30)
    assert api.status_code == status and words in api.json()["error"]
    assert trap.connections == 0
    if status == 400:
        assert len(site.requests) == before  # nothing fetched at all


def test_redirects_off_chess_results_are_refused_on_every_hop(server, site, trap):
    site.page("999301", art=0, body=_redirect(f"http://127.0.0.1:{trap.port}/tnr999301.aspx"))
    site.page("999302", art=0, body=_redirect("http://169.254.169.254/latest/meta-data/"))
    for tnr, host in (("999301", f"127.0.0.1:{trap.port}"), ("999302", "169.254.169.254")):
        r = requests.post(server.url + "report", data={"source": tnr}, timeout=30)
        assert r.status_code == 502
        assert f"refusing redirect to {host}" in error_line(r.text)
    assert trap.connections == 0


def _redirect(location: str):
    from loopback import Reply

    return Reply.redirect(location)


def test_bad_options_are_the_command_line_message_in_words(server, run_cli):
    r = requests.post(server.url + "report", data={"source": TNR, "player": "Zed"}, timeout=30)
    assert r.status_code == 200 and r.url.endswith(f"/report/{TNR}/?q=Zed")  # the search
    assert "No player matches “Zed”." in r.text and "--" not in r.text
    api = requests.get(server.url + "api/report", params={"source": TNR, "k": "0"}, timeout=10)
    cli = run_cli("report", str(TRF), "--k", "0")
    assert api.status_code == 400  # the same rule, the same words; no option syntax on the web
    assert api.json()["error"] == "K 0: expected a whole number from 1 to 100"
    assert api.json()["error"] in cli.stderr and cli.code == 2
    page = upload(server, TRF, k="0")
    assert page.status_code == 400 and "--" not in error_line(page.text)


def test_a_file_that_is_no_tournament_is_one_line(server):
    for name, body in (("notes.txt", b"hello\nworld\n"), ("x.xlsx", b"PK\x03\x04broken"),
                       ("empty.trf", b"")):
        r = requests.post(server.url + "report", files={"files": (name, body)}, timeout=30)
        assert r.status_code == 400, (name, r.text)
        line = error_line(r.text)
        assert "fiderate-upload" not in line and "tmp" not in line
        assert line.startswith(name) or name == "empty.trf"
    assert server.uploads_left() == []


def test_no_input_is_asked_for(server):
    r = requests.post(server.url + "report", data={}, timeout=10)
    assert r.status_code == 400 and "give a chess-results link" in error_line(r.text)
    r = requests.get(server.url + "api/report", timeout=10)
    assert r.status_code == 400 and "source" in r.json()["error"]
    r = requests.get(server.url + "api/report", params={"source": TNR, "evil": "1"}, timeout=10)
    assert r.status_code == 400 and "unknown parameter 'evil'" in r.json()["error"]


def test_expired_or_unknown_reports_are_404(server):
    r = requests.get(server.url + "report/uNoSuchKey/", timeout=10)
    assert r.status_code == 404 and error_line(r.text) == "unknown report: no report has this address"
    # an upload key's form, but not signed by this server: never issued, or by another run
    r = requests.get(server.url + "report/u" + "A" * 24 + "/", timeout=10)
    assert r.status_code == 404 and error_line(r.text).startswith(
        "this report is unknown or has expired (one of uploaded files is kept for an hour")
    r = requests.get(server.url + "report/999404-k30/", timeout=30)
    assert r.status_code == 404 and "no such tournament" in error_line(r.text)
    assert "internal error" not in server.log()
    r = requests.get(server.url + "report/../etc/passwd", timeout=10)
    assert r.status_code == 404


def test_openapi_describes_the_api(server):
    spec = requests.get(server.url + "api/openapi.json", timeout=10).json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/report", "/api/calc", "/healthz"} <= set(spec["paths"])
    assert {"get", "post"} == set(spec["paths"]["/api/report"])
    period = spec["paths"]["/api/period"]["post"]
    fields = period["requestBody"]["content"]["multipart/form-data"]["schema"]["properties"]
    assert set(fields) == {"period", "tournaments", "ratings_list", "list"}
    assert {"200", "403"} <= set(period["responses"])
    assert period["security"] == [{}, {"writeToken": []}]
    assert spec["components"]["securitySchemes"]["writeToken"]["scheme"] == "bearer"


def test_many_users_at_once_keep_the_delay_between_requests(tmp_path, site, trap):
    """Twelve users paste three tournaments at once: each tournament is fetched once, and
    the requests reach chess-results one at a time, --delay apart."""
    tnrs = ("999011", "999012", "999013")
    ranking = (CR / "art1_ranking_published_small.html").read_text(encoding="utf-8")
    crosstable = (CR / "art5_crosstable_published_small.html").read_text(encoding="utf-8")
    for tnr in tnrs:
        site.page(tnr, art=0, body=ranking)
        site.page(tnr, art=5, body=crosstable)
    delay = 0.3
    with Served(tmp_path, "--delay", str(delay), base_url=site.url) as server, \
            ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda i: requests.post(
            server.url + "report", data={"source": tnrs[i % 3]}, timeout=60), range(12)))
    assert [a.status_code for a in answers] == [200] * 12
    paths = {f"/tnr{tnr}.aspx" for tnr in tnrs}
    arrivals = sorted(r.at for r in site.requests if r.path in paths)
    assert len(arrivals) == 6  # two pages per tournament, fetched once for four users each
    gaps = [b - a for a, b in pairwise(arrivals)]
    assert min(gaps) >= delay * 0.9, gaps
    assert trap.connections == 0


CROSS_SITE = ("refused: this was sent from another web site; open this server&#39;s own page "
              "and send it from there")


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://ADDRESS", "Sec-Fetch-Site": "same-site"},
    {"Origin": "https://ADDRESS"},  # another scheme
    {"Origin": "http://ADDRESS/path"},
    {"Origin": "http://user@ADDRESS"},
    {"Origin": "http://ADDRESS, http://ADDRESS"},
    {"Host": "evil.example", "Origin": "http://ADDRESS"},  # only a non-browser sends another Host
], ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_posts_from_other_sites_are_refused_before_anything_is_read(server, site, headers):
    address = server.url.removeprefix("http://").rstrip("/")  # 127.0.0.1:port
    sent = {k: v.replace("ADDRESS", address) for k, v in headers.items()}
    before = len(site.requests)
    r = requests.post(server.url + "report", data={"source": "999404"}, headers=sent, timeout=10)
    assert r.status_code == 403 and error_line(r.text) == CROSS_SITE
    assert 'name="source"' in r.text  # the form it came from, with the one line
    api = requests.post(server.url + "api/report", data={"source": "999404"}, headers=sent,
                        timeout=10)
    assert api.status_code == 403
    assert api.json() == {"error": CROSS_SITE.replace("&#39;", "'"), "code": "forbidden"}
    period = requests.post(server.url + "period", data={"period": "2025-13"}, headers=sent,
                           timeout=10)
    assert period.status_code == 403 and error_line(period.text) == CROSS_SITE
    assert len(site.requests) == before  # nothing fetched
    assert "refused a cross-site POST /report" in server.log()


@pytest.mark.parametrize("headers", [
    {}, {"Origin": "http://ADDRESS"}, {"Origin": "http://ADDRESS", "Sec-Fetch-Site": "same-origin"},
    {"Origin": "HTTP://ADDRESS"}, {"Sec-Fetch-Site": "none"}, {"Sec-Fetch-Site": "same-origin"},
    {"Host": "localhost:PORT", "Origin": "http://localhost:PORT"},
], ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()) or "none")
def test_posts_from_the_server_own_pages_or_from_no_browser_go_on(server, headers):
    address = server.url.removeprefix("http://").rstrip("/")
    port = address.rsplit(":", 1)[1]
    sent = {k: v.replace("ADDRESS", address).replace("PORT", port) for k, v in headers.items()}
    r = requests.post(server.url + "report", data={"source": TNR}, headers=sent, timeout=30)
    assert r.status_code == 200 and r.url == f"{server.url}report/{TNR}/"
    api = requests.post(server.url + "api/report", data={"source": TNR}, headers=sent, timeout=30)
    assert api.status_code == 200 and api.json()["key"] == TNR


def test_pages_from_another_site_are_still_given(server):
    """A GET changes nothing: a link from anywhere opens the report."""
    r = requests.get(server.url + f"report/{TNR}/", timeout=30,
                     headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 200


def test_a_server_given_its_origin_takes_posts_from_there_only(tmp_path, site):
    public = "https://ratings.example"
    with Served(tmp_path, "--origin", public, "--origin", "http://10.0.0.7:8080",
                base_url=site.url) as server:
        own = server.url.rstrip("/")
        for origin in (own, "http://ratings.example", "https://ratings.example:8443",
                       "https://evil.example"):
            r = requests.post(server.url + "api/report", data={"source": TNR}, timeout=10,
                              headers={"Origin": origin})
            assert r.status_code == 403, origin
        rebound = requests.post(server.url + "api/report", data={"source": TNR}, timeout=10,
                                headers={"Host": "evil.example", "Origin": "http://evil.example"})
        assert rebound.status_code == 403  # a rebound name is not the server's origin
        for headers in ({"Origin": public}, {"Origin": public + ":443"},
                        {"Origin": "http://10.0.0.7:8080"}, {}):
            r = requests.post(server.url + "api/report", data={"source": TNR}, timeout=30,
                              headers=headers)
            assert r.status_code == 200, headers


@pytest.mark.parametrize(("args", "words"), [
    (["--origin", "ratings.example"], "expected scheme://host[:port]"),
    (["--origin", "https://ratings.example/path"], "expected scheme://host[:port]"),
    (["--write-token", "short-token"], "use 12 or more letters, digits, punctuation or spaces"),
    (["--write-token", " a spaced secret"], "none first or last"),
    (["--write-token", "a secret, ünïcode"], "use 12 or more"),
])
def test_bad_origins_and_tokens_are_refused_at_start(run_cli, args, words):
    res = run_cli("serve", "--port", "0", *args)
    assert res.code == 2 and words in res.stderr
    if args[0] == "--write-token":
        assert args[1] not in res.stderr  # the token is never shown
