"""The period page and POST /api/period against running servers: the same files as
``fiderate period``; the rating register read by a server started with --store, and written
only for a request carrying its write token, never for one from another web site."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
import requests
from serving import ROOT, Served

from rating.period.register import Register

pytestmark = pytest.mark.slow  # server processes

PERIOD = ROOT / "fixtures" / "period"
EVENTS = ("elite_nov2025.trf", "halloween_weekender.trf", "newcomers_nov2025.trf",
          "late_november.trf")
LIST = "players_list_foa_nov25.txt"


TOKEN = "club-secret-7f3a9c2e51"
PASSPHRASE = "correct horse battery staple"
TABLES = ("players", "periods", "lists", "tournaments", "games", "pool", "list_months",
          "list_players")


def post_period(server: Served, path: str = "period", *, with_list: bool = True,
                headers: dict[str, str] | None = None, **fields: str) -> requests.Response:
    files = [("tournaments", (e, (PERIOD / e).read_bytes())) for e in EVENTS]
    if with_list:
        files.append(("ratings_list", (LIST, (PERIOD / LIST).read_bytes())))
    return requests.post(server.url + path, files=files, data={"period": "2025-12", **fields},
                         headers=headers, timeout=60)


def tables(store: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table of the register, sorted."""
    with Register(store) as reg:
        return {name: reg.table(name) for name in TABLES}


def imported_register(tmp_path: Path, run_cli) -> Path:
    """A register holding the November FIDE list and no period."""
    store = tmp_path / "register.sqlite"
    res = run_cli("list", "import", str(PERIOD / LIST), "--month", "2025-11", "--store", str(store))
    assert res.code == 0, res.stderr
    return store


def status_line(html: str) -> str:
    """The page's one line about the register."""
    found = re.findall(r'<p class="site-status" role="status">(.*?)</p>', html)
    assert len(found) == 1, html
    return found[0].replace("&#39;", "'")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


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


def test_without_a_write_token_the_register_is_read_and_never_written(tmp_path, run_cli):
    store = imported_register(tmp_path, run_cli)
    before = tables(store)
    assert before["list_players"] and not before["periods"]
    with Served(tmp_path / "read", "--store", str(store)) as server:
        form = requests.get(server.url + "period", timeout=10)
        assert "does not save periods to its register" in form.text
        assert 'name="token"' not in form.text
        for sent in ({"data": {"token": TOKEN}}, {"headers": bearer(TOKEN)}, {}):
            r = post_period(server, with_list=False, headers=sent.get("headers"),
                            **sent.get("data", {}))
            assert r.status_code == 200, r.text
            assert status_line(r.text) == ("Not saved: this server does not save periods to its "
                                           "rating register.")
            # read: the list in the register gives the ratings and K
            assert "ratings and K from the FIDE list of 2025-11 in the register" in r.text
        refused = post_period(server, "api/period", with_list=False, headers=bearer(TOKEN))
        assert refused.status_code == 403
        assert refused.json() == {"error": "this server does not save periods to its rating "
                                           "register", "code": "forbidden"}
        api = post_period(server, "api/period", with_list=False)
        assert api.status_code == 200 and api.json()["stored"] is False
        assert ("Not saved: this server does not save periods to its rating register."
                in [n["text"] for n in api.json()["notes"]])
        assert "the register" in server.log() and "never writes it" in server.log()
    assert tables(store) == before


def test_a_server_with_a_store_and_no_token_makes_no_register(tmp_path):
    store = tmp_path / "none-yet.sqlite"
    with Served(tmp_path / "absent", "--store", str(store)) as server:
        assert post_period(server).status_code == 200
    assert not store.exists()


def test_a_missing_or_wrong_token_rates_the_month_and_saves_nothing(tmp_path, run_cli):
    store = imported_register(tmp_path, run_cli)
    before = tables(store)
    with Served(tmp_path / "guarded", "--store", str(store),
                env={"FIDERATE_WRITE_TOKEN": TOKEN}) as server:
        form = requests.get(server.url + "period", timeout=10)
        assert 'name="token" type="password"' in form.text
        assert "saved to it only with the register's write token" in form.text
        for fields, headers, line in (
                ({}, None, "no write token was given"),
                ({"token": ""}, None, "no write token was given"),
                ({"token": TOKEN[:-1]}, None, "the write token was wrong"),
                ({"token": TOKEN + "x"}, None, "the write token was wrong"),
                ({}, bearer("nope"), "the write token was wrong"),
                ({}, {"Authorization": f"Basic {TOKEN}"}, "the write token was wrong")):
            r = post_period(server, headers=headers, **fields)
            assert r.status_code == 200, r.text
            assert "FIDE rating period 2025-12" in r.text
            assert status_line(r.text) == f"Not saved to the rating register: {line}."
        for headers in (bearer("nope"), bearer(""), {"Authorization": TOKEN}):
            refused = post_period(server, "api/period", headers=headers)
            assert refused.status_code == 403, headers
            assert refused.json() == {"error": "the write token is wrong (Authorization: "
                                               "Bearer TOKEN)", "code": "forbidden"}
        api = post_period(server, "api/period").json()
        assert api["stored"] is False
        assert "Not saved to the rating register: no write token was given." in \
            [n["text"] for n in api["notes"]]
        assert TOKEN not in server.log()
    assert tables(store) == before


def test_the_write_token_saves_the_month(tmp_path, run_cli):
    store = imported_register(tmp_path, run_cli)
    before = tables(store)
    with Served(tmp_path / "form", "--store", str(store), "--write-token", TOKEN) as server:
        r = post_period(server, token=TOKEN)
        assert r.status_code == 200, r.text
        assert status_line(r.text) == "Saved to this server's rating register."
        assert TOKEN not in r.text and TOKEN not in server.log()
    saved = tables(store)
    assert saved["periods"] == [("2025-12",)] and saved["games"]
    assert {k: v for k, v in saved.items() if k.startswith("list_")} == {
        k: v for k, v in before.items() if k.startswith("list_")}
    fresh = tmp_path / "fresh.sqlite"
    with Served(tmp_path / "api", "--store", str(fresh),
                env={"FIDERATE_WRITE_TOKEN": PASSPHRASE}) as server:
        assert post_period(server, "api/period", headers=bearer(TOKEN)).status_code == 403
        assert not fresh.exists()
        api = post_period(server, "api/period", headers=bearer(PASSPHRASE))
        assert api.status_code == 200, api.text
        got = api.json()
        assert got["stored"] is True and got["period"] == "2025-12"
        assert got["url"] == f"/period/{got['key']}/"
        page = requests.get(server.url + got["url"].lstrip("/"), timeout=10)
        assert status_line(page.text) == "Saved to this server's rating register."
        csv_text = requests.get(server.url + got["url"].lstrip("/") + "period_players.csv",
                                timeout=10).text
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert len(got["players"]) == len(rows) > 0
    for row, player in zip(rows, got["players"], strict=True):
        assert set(player) == set(row)
        for column, value in row.items():
            shown = player[column]
            if column in ("fide_id", "name", "list", "status", "federation", "matched_by", "rating_from"):
                assert shown == value
            elif column in ("change", "score"):  # exact decimals: the CSV's figure
                assert shown == (value or None), column
            else:
                assert shown == (None if value == "" else int(value)), column
    assert any(isinstance(p["change"], str) for p in got["players"])
    month = ("players", "periods", "tournaments", "games", "pool")  # the lists: as imported
    assert {t: tables(fresh)[t] for t in month} == {t: saved[t] for t in month}


def test_posts_from_another_site_change_nothing(tmp_path, run_cli):
    store = imported_register(tmp_path, run_cli)
    before = tables(store)
    with Served(tmp_path / "csrf", "--store", str(store), "--write-token", TOKEN) as server:
        own = server.url.rstrip("/")
        for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                        {"Origin": own.replace("127.0.0.1", "localhost")},
                        {"Origin": own, "Sec-Fetch-Site": "cross-site"},
                        {"Sec-Fetch-Site": "same-site"}):
            r = post_period(server, headers=headers, token=TOKEN)
            assert r.status_code == 403, headers
            assert ("refused: this was sent from another web site" in r.text
                    and 'name="period"' in r.text)  # the form, with the one line
            api = post_period(server, "api/period", headers={**headers, **bearer(TOKEN)})
            assert api.status_code == 403
            assert api.json()["error"].startswith("refused: this was sent from another web site")
        # refused before the form is read: a body that cannot be read is not looked at
        raw = requests.post(server.url + "period", data=b"x", timeout=10, headers={
            "Origin": "http://evil.example", "Content-Type": "multipart/form-data"})
        assert raw.status_code == 403
        assert server.uploads_left() == []
        assert tables(store) == before
        same = post_period(server, token=TOKEN,
                           headers={"Origin": own, "Sec-Fetch-Site": "same-origin"})
        assert same.status_code == 200
        assert status_line(same.text) == "Saved to this server's rating register."
    assert tables(store)["periods"] == [("2025-12",)]


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
        assert gone.status_code == 404 and "unknown rating period: no rating period has this " \
            "address" in gone.text
