"""The period page against running servers: the same files as ``fiderate period``, and the
rating register written only by a server started with --store."""

from __future__ import annotations

import re

import requests
from serving import ROOT, Served

from rating.register import Register

PERIOD = ROOT / "fixtures" / "period"
EVENTS = ("elite_nov2025.trf", "halloween_weekender.trf", "newcomers_nov2025.trf",
          "late_november.trf")
LIST = "players_list_foa_nov25.txt"


def post_period(server: Served, **fields: str) -> requests.Response:
    files = [("tournaments", (e, (PERIOD / e).read_bytes())) for e in EVENTS]
    files.append(("ratings_list", (LIST, (PERIOD / LIST).read_bytes())))
    return requests.post(server.url + "period", files=files,
                         data={"period": "2025-12", **fields}, timeout=60)


def test_the_period_page_is_fiderate_period_and_stores_nothing(tmp_path, run_cli):
    with Served(tmp_path / "plain") as server:
        form = requests.get(server.url + "period", timeout=10)
        assert form.status_code == 200 and "Nothing is stored on this server." in form.text
        r = post_period(server)
        assert r.status_code == 200, r.text
        assert re.fullmatch(rf"{re.escape(server.url)}period/u[\w-]+/", r.url)
        assert "FIDE rating period 2025-12" in r.text
        assert "late_november: the source gives no time control; rated as standard" in r.text
        served = {name: requests.get(r.url + name, timeout=10)
                  for name in ("period_players.csv", "period_games.csv")}
        links = re.findall(r'href="([\w.-]+/index\.html)"', r.text)
        assert len(links) == len(EVENTS)
        for link in links:  # each tournament's report, as `fiderate period` writes it beside
            page = requests.get(r.url + link, timeout=10)
            assert page.status_code == 200 and "<h1>" in page.text
        # each player's calculation is a page of its own, and its links resolve under the key
        players = re.findall(r'<th scope="row"><a href="(period-players/[\w.-]+\.html)">', r.text)
        assert len(players) == 19
        arkell = requests.get(r.url + "period-players/99200001-standard.html", timeout=10)
        assert arkell.status_code == 200 and "<h1>Arkell, Magnus</h1>" in arkell.text
        assert "default-src 'none'" in arkell.headers["content-security-policy"]
        hrefs = set(re.findall(r'href="([^"#]+)"', arkell.text))
        assert {"../period.html", "../elite_nov2025/player-1.html",
                "../period_players.csv", "../period-players/99200005-standard.html"} <= hrefs
        for href in hrefs:
            url = requests.compat.urljoin(arkell.url, href)
            if url.startswith(r.url):
                assert requests.get(url, timeout=10).status_code == 200, href
        assert requests.get(r.url + "../../etc/passwd", timeout=10).status_code == 404
        assert server.uploads_left() == []
        assert not list(server.data.rglob("*.sqlite"))  # no register anywhere
    res = run_cli("period", *(str(PERIOD / e) for e in EVENTS), "--period", "2025-12",
                  "--ratings-list", str(PERIOD / LIST), "--store", str(tmp_path / "cli.sqlite"),
                  "--out", str(tmp_path / "out"))
    assert res.code == 0, res.stderr
    for name, got in served.items():
        assert got.headers["content-type"].startswith("text/csv")
        assert got.content == (tmp_path / "out" / name).read_bytes(), name


def test_a_server_with_a_store_writes_the_register(tmp_path):
    store = tmp_path / "register.sqlite"
    with Served(tmp_path / "stored", "--store", str(store)) as server:
        form = requests.get(server.url + "period", timeout=10)
        assert "This server keeps a rating register" in form.text
        assert post_period(server).status_code == 200
    with Register(store) as reg:
        assert f"{reg.newest_period():%Y-%m}" == "2025-12"


def test_period_errors_are_one_line_on_the_form(tmp_path):
    with Served(tmp_path / "errors") as server:
        for month in ("2025-13", "0000-12"):
            r = requests.post(server.url + "period", data={"period": month}, timeout=10)
            assert r.status_code == 400
            assert "expected a list month YYYY-MM" in r.text and "Traceback" not in r.text
        bad = requests.post(server.url + "period", files={"tournaments": ("notes.txt", b"hi")},
                            data={"period": "2025-12"}, timeout=60)
        assert bad.status_code == 400 and "notes.txt: not a chess-results page" in bad.text
        late = requests.post(server.url + "period", files={
            "tournaments": ("a.trf", (PERIOD / EVENTS[0]).read_bytes())},
            data={"period": "2999-01"}, timeout=60)
        assert late.status_code == 400 and "is after next month" in late.text
        assert server.uploads_left() == []
        gone = requests.get(server.url + "period/uNothing/", timeout=10)
        assert gone.status_code == 404 and "no longer kept" in gone.text
