"""The server's fairness on its own: clients told apart, each client's budget of tournaments,
requests to chess-results taking turns, 'no such tournament' remembered, link pages read in
the worker processes, and the kept reports bounded by bytes with a share for each client."""

from __future__ import annotations

import pickle
import threading
import time
from datetime import date

import pytest
from loopback import ChessResults
from serving import ROOT, TNR, serve_fixtures

from importer.errors import NoSuchTournament
from importer.net.urls import Ref
from reports.web.fair import Budget, Clients, OverBudget, Ticket, Turns, parse_networks
from reports.web.problems import Problem
from reports.web.service import Config, Fetcher, Reports, SingleFlight, Store

TRF = ROOT / "fixtures" / "sample_open.trf"


# --- who is asking ------------------------------------------------------------------------

def test_a_client_is_the_address_it_connects_from():
    clients = Clients()
    assert clients.of("203.0.113.7") == "203.0.113.7"
    assert clients.of("::ffff:203.0.113.7") == "203.0.113.7"  # IPv4 as IPv6: the same client
    # an IPv6 client is its /64 network: what one household or machine is given
    assert clients.of("2001:db8:1:2:aaaa::1") == clients.of("2001:db8:1:2:bbbb::9") == \
        "2001:db8:1:2::/64"
    assert clients.of("2001:db8:1:3::1") != clients.of("2001:db8:1:2::1")
    assert clients.of(None) == "unknown" and clients.of("testclient") == "testclient"


def test_forwarded_for_counts_only_from_a_trusted_proxy():
    anyone = Clients()
    assert anyone.of("203.0.113.7", ["198.51.100.1"]) == "203.0.113.7"  # anyone can write it
    proxied = Clients(["127.0.0.1", "10.0.0.0/8"])
    assert proxied.of("127.0.0.1", ["198.51.100.1"]) == "198.51.100.1"
    assert proxied.of("203.0.113.7", ["198.51.100.1"]) == "203.0.113.7"  # not through the proxy
    # read from the right: the client may have written anything before the proxy's entry
    assert proxied.of("127.0.0.1", ["6.6.6.6, 198.51.100.1"]) == "198.51.100.1"
    assert proxied.of("127.0.0.1", ["6.6.6.6", "198.51.100.1, 10.1.2.3"]) == "198.51.100.1"
    assert proxied.of("127.0.0.1", ["10.1.2.3"]) == "10.1.2.3"  # only proxies: the first
    assert proxied.of("127.0.0.1", ["garbage, 198.51.100.1"]) == "198.51.100.1"
    assert proxied.of("127.0.0.1", ["198.51.100.1, garbage"]) == "127.0.0.1"
    assert proxied.of("127.0.0.1", []) == "127.0.0.1"
    assert proxied.of("127.0.0.1", ["[2001:db8::1]"]) == "2001:db8::/64"


def test_proxies_are_addresses_or_networks(run_cli):
    assert [str(n) for n in parse_networks(["127.0.0.1", "10.0.0.0/8", "::1"])] == [
        "127.0.0.1/32", "10.0.0.0/8", "::1/128"]
    with pytest.raises(ValueError, match=r"'proxy\.example': not an IP address or network"):
        parse_networks(["proxy.example"])
    res = run_cli("serve", "--port", "0", "--trusted-proxy", "proxy.example")
    assert res.code == 2 and "not an IP address or network" in res.stderr


# --- how much each may ask ----------------------------------------------------------------

def test_each_client_has_a_few_tournaments_at_once_refilled_over_a_minute():
    now = [1000.0]
    budget = Budget(burst=3, refill=60, clock=lambda: now[0])
    for _ in range(3):
        budget.take("a")
    with pytest.raises(OverBudget) as refused:
        budget.take("a")
    assert refused.value.wait == 20  # one comes back every 20 s
    budget.take("b")  # another client is not touched
    now[0] += 19
    with pytest.raises(OverBudget) as again:
        budget.take("a")
    assert again.value.wait == 1
    now[0] += 1
    budget.take("a")
    now[0] += 3600
    assert budget.left("a") == 3  # never more than the burst
    problem = refused.value.problem()
    assert (problem.status, problem.retry_after) == (429, 20)
    assert str(problem) == ("too many new tournaments asked for from your address: try again in "
                            "20 seconds (reports already made open at once)")


def test_a_ticket_is_charged_once_and_only_when_asked_for():
    budget = Budget(burst=2, refill=60)
    ticket = Ticket("a", budget)
    ticket.charge()
    ticket.charge()  # the other pages of the same tournament
    assert budget.left("a") == pytest.approx(1, abs=0.01)
    with budget.asking("a"):
        pass  # nothing reached chess-results: nothing charged
    assert budget.left("a") == pytest.approx(1, abs=0.01)
    with pytest.raises(Problem) as caught, budget.asking("a") as mine:
        mine.charge()
        Ticket("a", budget).charge()
    assert caught.value.status == 429 and caught.value.retry_after == 30


def test_a_refusal_of_the_callers_own_budget_is_not_shared():
    flight: SingleFlight[str, int] = SingleFlight()
    started, calls = threading.Event(), []

    def over() -> int:
        started.set()
        time.sleep(0.3)
        raise OverBudget(5)

    def fine() -> int:
        calls.append(1)
        return 7

    joined: list[int] = []
    refused: list[int] = []

    def lead() -> None:
        try:
            flight.run("k", over)
        except OverBudget as exc:
            refused.append(exc.wait)

    leader = threading.Thread(target=lead)
    leader.start()
    started.wait(5)
    joiner = threading.Thread(target=lambda: joined.append(flight.run("k", fine)))
    joiner.start()
    leader.join(5)
    joiner.join(5)
    assert refused == [5]
    assert joined == [7] and calls == [1]  # the joiner tried itself, on its own budget


# --- taking turns ---------------------------------------------------------------------------

def test_waiting_clients_take_turns_a_newcomer_first():
    turns = Turns()
    order: list[str] = []
    hold = threading.Event()

    def ask(client: str, name: str, host: str = "cr") -> None:
        with turns.turn(host, client):
            order.append(name)
            if name == "a0":
                hold.wait(5)

    threads = [threading.Thread(target=ask, args=("a", "a0"))]
    threads[0].start()
    while not order:
        time.sleep(0.01)
    for i, (client, name) in enumerate([("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"),
                                        ("b", "b2"), ("c", "c1")]):
        threads.append(threading.Thread(target=ask, args=(client, name)))
        threads[-1].start()
        while turns.waiting("cr") < i + 1:
            time.sleep(0.01)
    elsewhere = threading.Thread(target=ask, args=("a", "elsewhere", "another-host"))
    elsewhere.start()
    elsewhere.join(5)
    assert order == ["a0", "elsewhere"]  # another host does not wait for this one
    hold.set()
    for t in threads:
        t.join(5)
    # a, whose request was being sent, goes after b and c, then each in turn
    assert order[2:] == ["b1", "c1", "a1", "b2", "a2", "a3"]
    assert turns.waiting("cr") == 0


def test_whose_turn_it_is_is_decided_when_the_next_request_may_go():
    turns = Turns(delay=0.3)
    arrived: dict[str, float] = {}

    def ask(client: str, name: str) -> None:
        with turns.turn("cr", client):
            arrived[name] = time.monotonic()

    ask("a", "a0")
    a1 = threading.Thread(target=ask, args=("a", "a1"))
    a1.start()
    time.sleep(0.1)  # a1 waits out the delay; b1 comes in meanwhile
    b1 = threading.Thread(target=ask, args=("b", "b1"))
    b1.start()
    a1.join(5)
    b1.join(5)
    assert sorted(arrived, key=arrived.get) == ["a0", "b1", "a1"]
    gaps = [arrived["b1"] - arrived["a0"], arrived["a1"] - arrived["b1"]]
    assert min(gaps) >= 0.3 * 0.95, gaps


# --- 'no such tournament' remembered, pages read in the workers -------------------------------

def test_no_such_tournament_is_remembered_for_some_minutes(tmp_path):
    with ChessResults() as site:
        fetcher = Fetcher(Config(base_url=site.url, delay=0,
                                 cache_path=str(tmp_path / "http.sqlite")))
        for ref in (Ref("999404"), Ref("999404"), Ref("999404", snr=5, art=9)):
            with pytest.raises(NoSuchTournament, match="no such tournament"):
                fetcher.fetch(ref)
        assert site.count("/tnr999404.aspx") == 1  # asked once: then remembered
        remembered = fetcher.missing(Ref("999404"))
        assert remembered is not None and remembered.status == 404
        assert str(remembered).endswith(": no such tournament (HTTP 404)")
        assert fetcher.missing(Ref("999405")) is None


def test_link_pages_are_parsed_in_the_workers_not_in_the_server(tmp_path, monkeypatch):
    import importer.formats.chessresults.parse as parse_module
    import importer.net.fetch as fetch_module
    from reports.settings import ReportSettings
    from reports.web.jobs import Runner
    from reports.web.work import SealedPage

    parsed: list[str] = []
    real = parse_module.load_document

    def load(text: str, *, source: str = ""):
        parsed.append(source)
        return real(text, source=source)

    for module in (parse_module, fetch_module):
        monkeypatch.setattr(module, "load_document", load)
    with ChessResults() as site:
        serve_fixtures(site)
        fetcher = Fetcher(Config(base_url=site.url, delay=0,
                                 cache_path=str(tmp_path / "http.sqlite")))
        reports = Reports(fetcher, Runner(workers=1))
        kept = reports.link(Ref(TNR), ReportSettings(), client="a")
        assert kept.key == TNR and "Fiderate Published Open 2026" in kept.page("index.html")
        pages = fetcher.fetch(Ref(TNR), reports._read)  # the HTTP cache answers
    assert parsed == []  # nothing loaded in this (the server's) process
    assert [type(p) for p in pages] == [SealedPage, SealedPage]
    assert all(p.text == "" and p.page is None and p.sealed for p in pages)  # bytes, read
    assert [p.parsed().kind.value for p in pages] == ["ranking", "crosstable_start"]


# --- kept within their bytes ----------------------------------------------------------------

def _store(max_bytes: int = 100, **kwargs) -> Store[str]:
    return Store(max_bytes=max_bytes, weigh=len, **kwargs)


def test_the_store_keeps_within_its_bytes():
    store = _store(100)
    for i in range(10):
        store.put(f"k{i}", "x" * 20, 60, owner=f"c{i}")
    assert store.total <= 100 and len(store) == 5
    assert [store.get(f"k{i}") is not None for i in range(10)] == [False] * 5 + [True] * 5
    store.put("big", "y" * 150, 60, owner="c0")  # more than everything: kept alone, for its user
    assert store.get("big") is not None and len(store) == 1 and store.total == 150


def test_a_client_over_its_share_forgets_its_own_first():
    store = _store(300)  # a third each: 100 bytes
    store.put("a1", "a" * 40, 60, owner="a")
    store.put("c-link", "c" * 40, 60, owner="c", rebuildable=True)
    for i in range(8):
        store.put(f"b{i}", "b" * 40, 60, owner="b")
    assert store.held_by("b") <= 100
    assert [k for k in ("a1", "c-link", *(f"b{i}" for i in range(8))) if store.get(k)] == [
        "a1", "c-link", "b6", "b7"]  # b's own oldest went; a's upload and c's link stay


def test_link_reports_go_before_uploads_and_their_own_client_s_link_first():
    store = _store(300)
    store.put("b-link", "l" * 40, 60, owner="b", rebuildable=True)
    store.put("b1", "b" * 40, 60, owner="b")
    store.put("b2", "b" * 40, 60, owner="b")  # b: 120 > 100, its link goes, not its upload
    assert store.get("b-link") is None and store.get("b1") and store.get("b2")
    store.put("a-link", "l" * 90, 60, owner="a", rebuildable=True)
    store.put("c1", "c" * 90, 60, owner="c")
    store.put("d1", "d" * 90, 60, owner="d")  # 80 + 90 + 90 + 90 > 300: a link goes first
    assert store.get("a-link") is None
    assert all(store.get(k) for k in ("b1", "b2", "c1", "d1"))
    store.put("e1", "e" * 90, 60, owner="e")  # then an upload of a client holding the most
    assert store.total <= 300
    assert [k for k in ("b1", "b2", "c1", "d1", "e1") if store.get(k)] == ["b1", "b2", "d1",
                                                                            "e1"]


def test_the_heaviest_values_are_lightened_before_anything_is_forgotten():
    class Report:
        def __init__(self, core: int, made: int) -> None:
            self.core, self.made = core, made

        def weight(self) -> int:
            return self.core + self.made

        def lighten(self) -> None:
            self.made = 0

    store: Store[Report] = Store(max_bytes=300, weigh=Report.weight, lighten=Report.lighten)
    a, b, c, c2 = Report(20, 70), Report(20, 60), Report(20, 60), Report(20, 60)
    store.put("a", a, 60, owner="a")
    store.put("b", b, 60, owner="b")
    store.put("c", c, 60, owner="c")
    store.put("c2", c2, 60, owner="c")  # c holds 160, more than its 100: its first lightened
    assert (c.made, c2.made, store.held_by("c"), len(store)) == (0, 60, 100, 4)
    grown = Report(20, 0)
    store.put("d", grown, 60, owner="d")
    grown.made = 30  # it made its pages: past 300 in all
    store.reweigh("d", grown)
    assert (c2.made, a.made, b.made) == (0, 70, 60)  # the client holding the most, lightened
    assert len(store) == 5 and store.total == 260
    grown.made = 200  # alone more than its client's share: lightened itself
    store.reweigh("d", grown)
    assert grown.made == 0 and store.get("d") is grown
    store.reweigh("d", Report(1, 1))  # not the value kept under "d": nothing happens
    assert store.get("d") is grown and store.total == 230


def test_expired_values_make_room_first():
    store = _store(100)
    store.put("old", "o" * 60, -1, owner="a")
    store.put("new", "n" * 60, 60, owner="b")
    assert store.total == 60 and store.get("old") is None and store.get("new")


def test_a_kept_report_weighs_what_it_holds_and_lightens_back_to_what_crossed_over():
    import importer
    from reports.report import report_for
    from reports.settings import ReportSettings
    from reports.web.kept import Kept

    options = ReportSettings()
    built = Kept(report_for(importer.load(TRF), options), options, link=False, key="u1")
    first = built.page("index.html")
    kept: Kept = pickle.loads(pickle.dumps(built))  # as it crosses from the job
    grew: list[str] = []
    kept.watch(lambda key, value: grew.append(key))
    crossed = kept.weight()
    assert crossed > len(first) and kept.page("index.html") == first and grew == []
    player = kept.page("player-3.html")  # rated again: the report, then the page
    assert grew == ["u1", "u1"] and kept.weight() > crossed + len(player)
    kept.files()
    kept.json()
    assert kept.weight() > crossed * 5 and len(grew) == 4
    kept.lighten()
    assert kept.weight() == crossed
    assert kept.page("player-3.html") == player  # made again, the same


def test_a_web_report_takes_k_from_the_server_s_register(tmp_path, run_cli):
    """As ``fiderate report --store``: the FIDE list in force in the register gives K."""
    from importer.formats.trf import write_trf
    from importer.model import Player, RoundResult, Status, Tournament, TournamentInfo
    from reports.settings import ReportSettings
    from reports.web.jobs import Runner
    from reports.web.uploads import Upload

    db = tmp_path / "register.sqlite"
    listed = ROOT / "fixtures" / "fide-list" / "standard_rating_list_nov26.txt"
    assert run_cli("list", "import", str(listed), "--store", str(db), "--month", "2026-11",
                   "-q").code == 0
    people = (Player(start_no=1, name="Testplayer, Alpha", fide_id="90000011", rating=2300),
              Player(start_no=2, name="Testplayer, Beta", fide_id="90000022", rating=2385))
    results = (RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2, points=0),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1, points=1))
    trf = tmp_path / "t.trf"
    trf.write_text(write_trf(Tournament(info=TournamentInfo(name="x", start_date=date(2026, 11, 7)),
                                        players=people, results=results)))
    for store, ks in ((None, {(20, "default")}), (str(db), {(10, "list"), (20, "list")})):
        fetcher = Fetcher(Config(delay=0, store=store, cache_path=str(tmp_path / "http.sqlite")))
        reports = Reports(fetcher, Runner(workers=1))
        kept = reports.upload([Upload(trf, "t.trf")], ReportSettings(), client="a")
        assert {(p.k, p.k_source.value) for p in kept.report.rating.players} == ks
