"""Nothing lost, nothing doubled: event identity as properties over random months.

Random events (1–60 players, 1–11 rounds, byes, forfeits, absences; the same dates, result
patterns, event names and player names across events; start numbers shuffled) are given
with copies, earlier snapshots and the same event from a source without FIDE ids.  Distinct
events are never merged; every copy, snapshot and re-read is counted once; the period rates
exactly the games of the distinct events.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace
from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from importer.events import Event, distinct_events
from importer.identity import EventIdentity
from importer.model import Colour, Player, RoundResult, Status, System, Tournament, TournamentInfo
from rating.period.played import PlayedGames, event_identities
from rating.period.run import run_period

EXAMPLES = 2000 if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else 40
"""CI's profile runs each property over at least 2,000 months."""
PERIOD = date(2026, 4, 1)
NAMES = ("Smith, John", "Müller, Anna", "Kovacs, Peter", "Garcia, Maria", "Ivanov, Igor")
EVENT_NAMES = ("Club Quad A", "Club Quad B", "Spring Open")
DAYS = (date(2026, 3, 15), date(2026, 3, 22))
POINTS = (Decimal(1), Decimal("0.5"), Decimal(0))


def _event(seed: int, tag: int, players: int, rounds: int, pattern: int, with_ids: bool,
           name: str, day: date) -> Tournament:
    """One event of its own people (tag): pairings, byes, forfeits and results from
    *pattern* (events of one size and pattern pair and score alike, like a club's quads)."""
    rng, results_rng = random.Random(seed), random.Random(pattern)
    pairing = random.Random(pattern * 10_000 + players * 100 + rounds)
    labels = rng.sample(range(1, 10 * players + 1), players)  # start numbers, shuffled
    people = [Player(start_no=no, name=(f"{NAMES[i % len(NAMES)]}" if with_ids or rng.random() < .2
                                        else f"Player {tag}-{i}, Anna"),
                     federation="ENG", fide_id=str(20_000_000 + tag * 100 + i) if with_ids else "",
                     rating=1500 + rng.randrange(900), birth_year=1990)
              for i, no in enumerate(labels)]
    if not with_ids:  # without ids a player is their name: make this event's players its own
        people = [replace(p, name=f"Player {tag}-{i}, {p.name}") for i, p in enumerate(people)]
    results: list[RoundResult] = []
    for rnd in range(1, rounds + 1):
        order = [labels[i] for i in pairing.sample(range(players), players)]
        if len(order) % 2:
            results.append(RoundResult(start_no=order.pop(), round=rnd, status=Status.BYE,
                                       points=Decimal(1)))
        for white, black in zip(order[::2], order[1::2], strict=True):
            kind = pairing.random()
            if kind < .08:
                results += [RoundResult(start_no=white, round=rnd, status=Status.FORFEIT_WIN,
                                        opponent_no=black, points=Decimal(1)),
                            RoundResult(start_no=black, round=rnd, status=Status.FORFEIT_LOSS,
                                        opponent_no=white, points=Decimal(0))]
                continue
            if kind < .12:
                results += [RoundResult(start_no=no, round=rnd, status=Status.ABSENT,
                                        points=Decimal(0)) for no in (white, black)]
                continue
            score = POINTS[results_rng.randrange(3)]
            results += [RoundResult(start_no=white, round=rnd, status=Status.PLAYED,
                                    opponent_no=black, colour=Colour.WHITE, points=score),
                        RoundResult(start_no=black, round=rnd, status=Status.PLAYED,
                                    opponent_no=white, colour=Colour.BLACK, points=1 - score)]
    return Tournament(info=TournamentInfo(name=name, source=f"event{tag}.trf", start_date=day,
                                          end_date=day, rounds=rounds, system=System.SWISS,
                                          time_control="90 min + 30 sec"),
                      players=tuple(people), results=tuple(results))


def _snapshot(t: Tournament, rng: random.Random) -> Tournament | None:
    """An earlier moment: the first rounds, the last of them partly still being played."""
    rounds = max((r.round for r in t.results), default=0)
    if rounds < 2:
        return None
    last = rng.randrange(1, rounds)
    kept = []
    for r in t.results:
        if r.round < last:
            kept.append(r)
        elif r.round == last:
            kept.append(r if rng.random() < .6 else replace(r, status=Status.PENDING, points=None))
    return replace(t, results=tuple(kept), info=replace(t.info, source="snapshot.trf"))


def _reread(t: Tournament, rng: random.Random) -> Tournament:
    """The same event from another source: start numbers renumbered, players in another
    order, no FIDE ids."""
    new = rng.sample(range(1, 1000), len(t.players))
    to = {p.start_no: n for p, n in zip(t.players, new, strict=True)}
    players = [replace(p, start_no=to[p.start_no], fide_id="") for p in t.players]
    rng.shuffle(players)
    results = [replace(r, start_no=to[r.start_no],
                       opponent_no=to[r.opponent_no] if r.opponent_no is not None else None)
               for r in t.results]
    return replace(t, players=tuple(players), results=tuple(results),
                   info=replace(t.info, source="reread.xlsx"))


@st.composite
def months(draw: st.DrawFn) -> tuple[list[Tournament], list[tuple[str, Tournament, int]]]:
    """Distinct events and, beside them, copies, snapshots and re-reads (kind, source, of)."""
    small = draw(st.booleans())
    count = draw(st.integers(1, 6 if small else 3))
    events = []
    for tag in range(count):
        events.append(_event(
            seed=draw(st.integers(0, 2**32)), tag=tag,
            players=draw(st.integers(1, 6) if small else st.integers(1, 60)),
            rounds=draw(st.integers(1, 3) if small else st.integers(1, 11)),
            pattern=draw(st.integers(0, 2)), with_ids=draw(st.booleans()),
            name=draw(st.sampled_from(EVENT_NAMES)), day=draw(st.sampled_from(DAYS))))
    rng = random.Random(draw(st.integers(0, 2**32)))
    extra: list[tuple[str, Tournament, int]] = []
    for i, t in enumerate(events):
        kind = draw(st.sampled_from(("none", "copy", "snapshot", "reread")))
        if kind == "copy":
            extra.append((kind, replace(t, info=replace(t.info, source="copy.trf")), i))
        elif kind == "snapshot" and (snap := _snapshot(t, rng)) is not None:
            extra.append((kind, snap, i))
        elif kind == "reread" and t.players and all(p.fide_id for p in t.players):
            extra.append((kind, _reread(t, rng), i))
    return events, extra


def _has_games(t: Tournament) -> bool:
    return any(r.status is Status.PLAYED for r in t.results)


def _rows(t: Tournament) -> int:
    return sum(1 for r in t.results if r.status is Status.PLAYED)


@settings(max_examples=EXAMPLES)
@given(months(), st.randoms())
def test_distinct_events_stay_apart_and_copies_snapshots_rereads_count_once(month, rng) -> None:
    events, extra = month
    items = [*events, *(t for _, t, _ in extra)]
    order = list(range(len(items)))
    rng.shuffle(order)
    found = distinct_events([Event.of(items[i], [f"s{i}"]) for i in order])
    belongs = {id(t): i for i, t in enumerate(events)} | {id(t): of for _, t, of in extra}
    kept = Counter(belongs[id(e.tournament)] for e in found.events if _has_games(e.tournament))
    # a source without ids showing the games of two namesake events joins neither, and says so
    ambiguous = {i for i in order if any(w.code == "ambiguous-event"
                                         and w.message.startswith(f"s{i} ") for w in found.notes)}
    unsure = {belongs[id(items[i])] for i in ambiguous}
    for i, t in enumerate(events):
        if _has_games(t):
            assert kept[i] == (2 if i in unsure else 1), ("merged or doubled", i, found.notes)
    held = {id(e.tournament) for e in found.events}
    for i, (kind, t, of) in enumerate(extra, start=len(events)):
        if kind == "snapshot" and _has_games(t):
            if i in ambiguous:  # the games of its event and of a namesake: kept on its own
                assert id(events[of]) in held and id(t) in held, found.notes
            else:
                assert id(events[of]) in held and id(t) not in held, found.notes  # the newer
    for merge in found.merges:
        assert merge.why.words in merge.note.message  # a merge says why


@settings(max_examples=EXAMPLES)
@given(months())
def test_the_period_rates_the_games_of_the_distinct_events_once(month) -> None:
    events, extra = month
    if not any(_has_games(t) for t in events):
        return
    given = [*events, *(t for _, t, _ in extra)]
    result = run_period(given, period=PERIOD)
    once = distinct_events([Event.of(t, [f"s{i}"]) for i, t in enumerate(given)])
    assert len(result.games) == sum(_rows(e.tournament) for e in once.events)
    if not any(w.code == "ambiguous-event" for w in once.notes):
        assert len(result.games) == sum(_rows(t) for t in events)


@settings(max_examples=EXAMPLES)
@given(months())
def test_identities_made_at_once_equal_each_made_alone(month) -> None:
    """The period's identities (digests by numpy, for every event at once, when first asked
    for) are each event's own: the same digests, buckets and equality."""
    events, extra = month
    given = [*events, *(t for _, t, _ in extra)]
    at_once = event_identities(given, PlayedGames.of(given))
    assert all(e.keyed.known is None for e in at_once)  # nothing made before it is asked for
    for t, bulk in zip(given, at_once, strict=True):
        alone = EventIdentity.of(t)
        assert list(bulk.buckets()) == list(alone.buckets())  # whether games are shown: unmade
        assert bulk.keyed.rounds == alone.keyed.rounds and bulk.named.rounds == alone.named.rounds
        assert bulk == alone and bulk.keyed.has_games == bool(alone.keyed.rounds)


@settings(max_examples=EXAMPLES)
@given(months(), st.booleans())
def test_games_read_at_once_equal_each_event_read_alone(month, only_played) -> None:
    """The period's games read in one pass (with every result a game, or some not) are those
    read event by event."""
    events, extra = month
    given = [*events, *(t for _, t, _ in extra)]
    if only_played:  # every result a game: nothing is left out, nothing copied
        given = [replace(t, results=tuple(r for r in t.results if r.status is Status.PLAYED))
                 for t in given]
    at_once, alone = PlayedGames.of(given), PlayedGames._one_by_one(given)
    for name in ("tour", "me", "them", "score_h", "rounds"):
        assert getattr(at_once, name).tolist() == getattr(alone, name).tolist(), name
