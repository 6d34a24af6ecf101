"""What a player needs from the rounds still to play ("What do I need?").

Pure: a :class:`~importer.model.Tournament` in — finished, live or before round 1 — frozen
records out.  For each player and each goal in reach — a rating threshold (2000, 2200, 2300,
2400, the rating a title needs, 2400 where K becomes 10 from the next list, the user's
target), the event's change turning positive, a title norm — the least total over the games
still to play that reaches it whatever the single results (``guaranteed``) and the least
that can (``possible``), in words as people say them: "3 from 5 keeps you above 2200",
"4½ from the last 5 rounds for a GM norm".  The rules and the definitions, with their
articles, are in ``docs/needs.md``.

- A rating goal is about the new rating after the event: the rating plus the event's change
  rounded once (the system's ``new_rating``), the change being the tournament view's
  (:func:`rating.tournament.rate_tournament`) with the games still to play filled in.  Game
  by game it is K × (S − E), so the engine rates the event once with every game to play
  drawn and reads each game's K and E; a system whose change is not K × (S − E) game by game
  gets no rating goals (a note says so).
- A norm goal is :class:`rating.norms.NormEvent`'s check over the player's results with the
  games to play filled in: every way of scoring them is tried, or one way per total where
  only the total can matter (no window of games but the whole event can count, 1.4.1e–f).
- A round of a Swiss not paired yet has no opponent: the engine assumes one
  (:class:`Assumption`) and the answer is an estimate, labelled so.

:func:`thresholds_crossed` finds the rounds after which a player's live rating crossed a
threshold that changes something; :func:`norm_prospects` tells, before round 1, who can
make a norm in the event at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from enum import StrEnum
from itertools import product
from math import ceil, floor

from importer.model import Colour, Player, RatingList, RoundResult, Status, System, Tournament
from rating.norms import (
    EventClass,
    NormEvent,
    NormResult,
    is_woman,
    norm_average,
    norms_sought,
    points_words,
    required_score,
    rounds_words,
)
from rating.results import PlayerRating, TournamentRating
from rating.systems import registry
from rating.systems.base import FideSystem, RatingSystem
from rating.systems.fide import MASTER_TITLES, average_rating
from rating.systems.fide_rules import (
    FideRules,
    NormRules,
    NormTitle,
    TitleNorm,
    norm_rules_for,
    rules_for,
)
from rating.tournament import KLookup, rate_tournament

__all__ = [
    "ENUMERATION_LIMIT",
    "Assumption",
    "Crossing",
    "Direction",
    "GoalKind",
    "Meaning",
    "Need",
    "NormProspect",
    "PlayerNeeds",
    "RemainingGame",
    "Verdict",
    "event_needs",
    "norm_prospects",
    "player_needs",
    "points_words",
    "thresholds_crossed",
]

_HALF = Decimal("0.5")
_RESULTS = (Decimal(0), _HALF, Decimal(1))
ENUMERATION_LIMIT = 3 ** 5
"""The most ways of scoring the games to play the norm search tries one by one (five
games); with more, where the window of games counted can matter, the answer counts one way
per total and is labelled an estimate."""

PLAIN_THRESHOLDS = (2000, 2200, 2300)
"""Round numbers people aim at besides the title ratings and FIDE's K threshold."""


class GoalKind(StrEnum):
    """What a goal is about."""

    RATING = "rating"
    """The new rating at or above a threshold: reach it, or keep it."""
    GAIN = "gain"
    """The event's change positive (the new rating above the rating)."""
    NO_LOSS = "no loss"
    """The event's change zero or more."""
    NORM = "norm"
    """A title norm made (Title Regulations 1.4)."""


class Verdict(StrEnum):
    """Where a goal stands, over every way the games to play can go."""

    CERTAIN = "certain"
    """Every way reaches it (nothing left to do)."""
    IN_REACH = "in reach"
    """Some ways reach it, others do not."""
    OUT_OF_REACH = "out of reach"
    """No way reaches it."""
    NOT_DECIDABLE = "not decidable"
    """A norm that turns on what the source does not show (titles, federations, ratings)."""


class Assumption(StrEnum):
    """Who a player meets in a round of a Swiss not paired yet: an opponent of one rating."""

    AVERAGE_SO_FAR = "average so far"
    """The average rating of the rated opponents met so far (before any game: of the field)."""
    SCORE_GROUP = "score group"
    """The average rating of the rated players within ½ point of the player's score whom the
    player has not met (none: as AVERAGE_SO_FAR)."""

    @property
    def words(self) -> str:
        """The assumption for people: 'the average of the opponents met so far'."""
        return {Assumption.AVERAGE_SO_FAR: "the average of the opponents met so far",
                Assumption.SCORE_GROUP: "the average of the players within ½ point of "
                                        "your score you have not met"}[self]


class Direction(StrEnum):
    """Which way a live rating crossed a threshold."""

    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True, kw_only=True)
class Meaning:
    """What a threshold means for a player, with the rule that says so."""

    words: str
    """'the IM title's rating'."""
    article: str = ""
    """'Title Regulations 1.5.3' ('' for the user's own target)."""

    @property
    def text(self) -> str:
        """'the IM title's rating, Title Regulations 1.5.3'."""
        return f"{self.words}, {self.article}" if self.article else self.words


@dataclass(frozen=True, slots=True, kw_only=True)
class RemainingGame:
    """One game still to play: the opponent paired (or known in a round robin), or an
    assumed one in a round not paired yet (``opponent_no`` None)."""

    round: int
    opponent_no: int | None
    name: str = ""
    rating: int | None = None
    """The opponent's rating (an assumed opponent's: the assumption's; None: unrated)."""
    title: str = ""
    """For a norm goal: an assumed opponent holds the title sought (when the source shows
    titles at all)."""
    federation: str = ""
    """For a norm goal: an assumed opponent comes from a federation not met yet, a different
    one each round ('?9': no real code)."""

    @property
    def assumed(self) -> bool:
        """True for a round not paired yet."""
        return self.opponent_no is None

    @property
    def words(self) -> str:
        """'Adams (2595)', 'an opponent rated 2410 (assumed)'."""
        rated = str(self.rating) if self.rating is not None else "unrated"
        if self.assumed:
            return f"an opponent {'rated ' if self.rating is not None else ''}{rated} (assumed)"
        return f"{self.name} ({rated})"


@dataclass(frozen=True, slots=True, kw_only=True)
class Need:
    """One goal of one player: what the games still to play need for it."""

    start_no: int
    name: str
    kind: GoalKind
    verdict: Verdict
    games: tuple[RemainingGame, ...]
    """The games still to play, as counted (assumed opponents included)."""
    rounds_left: int
    """The rounds still to play, with a game or not ("the last 5 rounds")."""
    guaranteed: Decimal | None
    """The least total over ``games`` such that every way of scoring it reaches the goal
    (0 when certain; None when no total does)."""
    possible: Decimal | None
    """The least total such that some way of scoring it reaches the goal (None: none)."""
    witness: tuple[Decimal, ...] = ()
    """A way of scoring ``possible`` that reaches the goal, game by game."""
    threshold: int | None = None
    """RATING: the rating to reach or keep; GAIN and NO_LOSS: the new rating that is one
    (the rating + 1, the rating)."""
    rating: int | None = None
    """The player's rating before the event."""
    keep: bool = False
    """RATING: the player is at or above the threshold already."""
    meanings: tuple[Meaning, ...] = ()
    """What the threshold means for this player (a title's rating, K 10, the target)."""
    least: int | None = None
    """Rating goals: the new rating with every game lost."""
    most: int | None = None
    """Rating goals: the new rating with every game won."""
    norm: NormTitle | None = None
    estimate: bool = False
    """True when an assumption decides it (an opponent not paired yet, or too many ways to
    try them all)."""
    assumption: str = ""
    """The assumption, in words ('' when exact)."""
    reasons: tuple[str, ...] = ()
    """Norms out of reach or not decidable: why, even with every game won."""

    @property
    def target(self) -> str:
        """The goal in words: '2200 (the CM title (by rating), Title Regulations 1.3.2)',
        'a GM norm', 'an IM norm'."""
        if self.kind is GoalKind.NORM:
            return _a_norm(self.norm)
        if self.kind is GoalKind.GAIN:
            return "a rating gain"
        if self.kind is GoalKind.NO_LOSS:
            return "no rating lost"
        said = "; ".join(m.text for m in self.meanings)
        return f"{self.threshold} ({said})" if said else str(self.threshold)

    @property
    def words(self) -> str:
        """The answer as people say it: '3 from 5 keeps you above 2200', '4½ from the last
        5 rounds for a GM norm; 4 can, with …', 'even 5 from 5 leaves you at 2187: 13 short
        of 2200'."""
        text = (_norm_words(self) if self.kind is GoalKind.NORM else _rating_words(self))
        return f"{text} ({self.assumption})" if self.estimate and self.assumption else text


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerNeeds:
    """One player's goals."""

    start_no: int
    name: str
    rating: int | None
    rounds_left: int
    games: tuple[RemainingGame, ...]
    """The games still to play (assumed opponents with the assumption's rating)."""
    assumed_rating: int | None
    """The rating an opponent not paired yet is assumed to have (None: no such round)."""
    assumption: Assumption
    needs: tuple[Need, ...]
    notes: tuple[str, ...] = ()
    """What was left out, and why."""

    @property
    def words(self) -> tuple[str, ...]:
        """Each goal's answer."""
        return tuple(n.words for n in self.needs)


@dataclass(frozen=True, slots=True, kw_only=True)
class Crossing:
    """A round after which a player's live rating crossed a threshold that changes something."""

    start_no: int
    name: str
    round: int
    threshold: int
    direction: Direction
    before: int
    """The live rating before this round's game."""
    after: int
    """The live rating after it: the rating + the change so far, rounded as the final is."""
    meanings: tuple[Meaning, ...]

    @property
    def words(self) -> str:
        """'after round 5: 2403, up through 2400 — the IM title's rating reached (Title
        Regulations 1.5.3; …)'."""
        said = "; ".join(_crossing_words(m, self.direction) for m in self.meanings)
        way = "up through" if self.direction is Direction.UP else "back below"
        return f"after round {self.round}: {self.after}, {way} {self.threshold} — {said}"


@dataclass(frozen=True, slots=True, kw_only=True)
class NormProspect:
    """Before round 1 (or at any time): whether a player can make a norm in this event at
    all, and what is still open."""

    start_no: int
    name: str
    norm: NormTitle
    possible: bool | None
    """False: the event cannot give it (``blocking`` says why); None: the source does not
    show what decides it; True: it can, given what is still ``open``."""
    games: int
    """The games the player plays if present every round."""
    blocking: tuple[str, ...] = ()
    open: tuple[str, ...] = ()
    best_ra: int | None = None
    """A Swiss: the best Ra the field can give (its strongest players, the lowest raised to
    the floor); a round robin: the Ra of the field met."""
    score_needed: Decimal | None = None
    """The least score over ``games`` for the performance and the 35 % against ``best_ra``."""
    exact: bool = False
    """A round robin: the opponents are known and the answer exact."""

    @property
    def words(self) -> str:
        """'IM norm: possible — 6½ from 9 against this field (Ra 2311); still open: …'."""
        head = f"{self.norm} norm"
        if self.possible is False:
            return f"{head}: not possible in this event — {'; '.join(self.blocking)}"
        if self.possible is None:
            return f"{head}: not decidable — {'; '.join(self.blocking)}"
        need = ""
        if self.score_needed is not None and self.best_ra is not None:
            against = ("against this field" if self.exact
                       else "against the strongest opponents the field has")
            need = (f" — {points_words(self.score_needed)} from {self.games} {against} "
                    f"(Ra {self.best_ra})")
        still = f"; still open: {'; '.join(self.open)}" if self.open else ""
        return f"{head}: possible{need}{still}"


# --- the engine -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Slot:
    """A game to play: its round, the opponent (None: not paired yet) and the source's row."""

    round: int
    opponent_no: int | None
    row: RoundResult | None


@dataclass(frozen=True, slots=True)
class _Setup:
    """What every player's needs in one tournament share."""

    t: Tournament
    by_no: dict[int, Player]
    rows: dict[int, dict[int, RoundResult]]
    planned: int
    norms: NormEvent
    assumption: Assumption
    slots: dict[int, list[_Slot]]
    """Each player's games still to play."""
    assumed: dict[int, int | None]
    """The rating each player's opponents not paired yet are assumed to have."""
    ghosts: int
    """The first start number no player has: assumed opponents are numbered from it."""


def event_needs(t: Tournament, start_nos: Iterable[int] | None = None, *,
                system: RatingSystem | str = "fide", target: int | None = None,
                assumption: Assumption = Assumption.AVERAGE_SO_FAR,
                event_class: EventClass | None = None, on: date | None = None,
                today: date | None = None, qc_approved: bool = False, k_default: int = 20,
                k_lookup: KLookup | None = None) -> tuple[PlayerNeeds, ...]:
    """Every goal of the players with *start_nos* (None: all), in that order.

    *system*, *on*, *today*, *k_default*, *k_lookup*: as
    :func:`rating.tournament.rate_tournament` (a report rated with a list's K passes the same
    lookup, so that its needs count the K it shows);
    *event_class*, *qc_approved*: as :func:`rating.norms.check_norms`; *target*: the user's
    own rating target; *assumption*: the rating of an opponent not paired yet."""
    setup = _setup(t, assumption, event_class, on, qc_approved)
    numbers = [p.start_no for p in t.players] if start_nos is None else list(start_nos)
    for no in numbers:
        if no not in setup.by_no:
            raise KeyError(f"no player with start number {no}")
    draft, chosen = _draft_rating(setup, system, on, today, k_default, k_lookup)
    return tuple(_player(setup, no, draft, chosen, target) for no in numbers)


def player_needs(t: Tournament, start_no: int, *, system: RatingSystem | str = "fide",
                 target: int | None = None, assumption: Assumption = Assumption.AVERAGE_SO_FAR,
                 event_class: EventClass | None = None, on: date | None = None,
                 today: date | None = None, qc_approved: bool = False, k_default: int = 20,
                 k_lookup: KLookup | None = None) -> PlayerNeeds:
    """:func:`event_needs` of one player."""
    return event_needs(t, (start_no,), system=system, target=target, assumption=assumption,
                       event_class=event_class, on=on, today=today, qc_approved=qc_approved,
                       k_default=k_default, k_lookup=k_lookup)[0]


def _setup(t: Tournament, assumption: Assumption, event_class: EventClass | None,
           on: date | None, qc_approved: bool) -> _Setup:
    rows: dict[int, dict[int, RoundResult]] = {p.start_no: {} for p in t.players}
    for r in t.results:
        rows.setdefault(r.start_no, {})[r.round] = r
    norms = NormEvent.of(t, event_class=event_class, on=on, qc_approved=qc_approved)
    by_no = t.players_by_no()
    paired = max((r.round for r in t.results if r.status.is_game), default=0)
    slots = {p.start_no: _slots(t, by_no, rows.get(p.start_no, {}), p.start_no, norms.planned,
                                paired) for p in t.players}
    points = {no: _points_so_far(mine) for no, mine in rows.items()}
    assumed = {p.start_no: _assumed_rating(t, by_no, rows.get(p.start_no, {}), p.start_no,
                                           assumption, points)
               if any(s.opponent_no is None for s in slots[p.start_no]) else None
               for p in t.players}
    return _Setup(t, by_no, rows, norms.planned, norms, assumption, slots, assumed,
                  ghosts=max((p.start_no for p in t.players), default=0) + 1)


def _slots(t: Tournament, by_no: dict[int, Player], mine: dict[int, RoundResult], no: int,
           planned: int, paired: int) -> list[_Slot]:
    """The games *no* still has to play: paired games without a result, and each round after
    the last one *paired* (for anyone) that shows nothing for the player yet — a round robin:
    against the players not met yet, as often as the rounds ask; a Swiss: an opponent not
    known."""
    out = [_Slot(r.round, r.opponent_no if r.opponent_no in by_no else None, r)
           for r in sorted(mine.values(), key=lambda r: r.round) if r.status is Status.PENDING]
    free = [rd for rd in range(paired + 1, planned + 1) if rd not in mine]
    if not free:
        return out
    if t.info.system is not System.ROUND_ROBIN:
        return out + [_Slot(rd, None, None) for rd in free]
    others = sorted(n for n in by_no if n != no)
    per_cycle = len(others) + (len(others) + 1) % 2  # odd fields: a bye each cycle
    cycles = max(1, round(planned / per_cycle)) if per_cycle else 0
    met = Counter(r.opponent_no for r in mine.values() if r.opponent_no is not None)
    owed = [o for o in others for _ in range(max(cycles - met[o], 0))]
    return out + [_Slot(rd, opp, None) for rd, opp in zip(free, owed, strict=False)]


def _points_so_far(rows: dict[int, RoundResult]) -> Decimal:
    return sum((r.points or Decimal(0) for r in rows.values() if r.status is not Status.PENDING),
               Decimal(0))


def _assumed_rating(t: Tournament, by_no: dict[int, Player], mine: dict[int, RoundResult],
                    no: int, assumption: Assumption, points: dict[int, Decimal]) -> int | None:
    """The rating of an opponent not paired yet (:class:`Assumption`); None when no rated
    player is there to go by."""
    met = {r.opponent_no for r in mine.values() if r.opponent_no is not None}
    if assumption is Assumption.SCORE_GROUP:
        score = points.get(no, Decimal(0))
        group = [p.rating for p in t.players if p.rating is not None and p.rating_known
                 and p.start_no != no and p.start_no not in met
                 and abs(points.get(p.start_no, Decimal(0)) - score) <= _HALF]
        if group:
            return average_rating(group)
    faced = [o.rating for r in mine.values() if r.status is Status.PLAYED
             and (o := by_no.get(r.opponent_no or -1)) is not None
             and o.rating is not None and o.rating_known]
    if faced:
        return average_rating(faced)
    everyone = [p.rating for p in t.players if p.rating is not None and p.rating_known
                and p.start_no != no]
    return average_rating(everyone) if everyone else None


def _assumed_player(setup: _Setup, game: RemainingGame) -> Player:
    """An assumed opponent as a player of the event (a start number no one has; one a
    round)."""
    return Player(start_no=setup.ghosts + game.round, name=f"assumed opponent, round "
                  f"{game.round}", title=game.title, federation=game.federation,
                  rating=game.rating)


def _games(setup: _Setup, no: int, norm: TitleNorm | None = None) -> tuple[RemainingGame, ...]:
    """The games still to play as records; for a *norm*, an assumed opponent holds the title
    sought (where the source shows titles) and comes from a federation not met yet."""
    out = []
    for s in setup.slots[no]:
        if s.opponent_no is not None:
            o = setup.by_no[s.opponent_no]
            out.append(RemainingGame(round=s.round, opponent_no=o.start_no, name=o.name,
                                     rating=o.rating, title=o.title, federation=o.federation))
        elif norm is None:
            out.append(RemainingGame(round=s.round, opponent_no=None,
                                     rating=setup.assumed[no]))
        else:
            title = norm.title.value if setup.norms.titles_shown else ""
            out.append(RemainingGame(round=s.round, opponent_no=None, rating=setup.assumed[no],
                                     title=title, federation=f"?{s.round}"))
    return tuple(out)


def _rounds_left(setup: _Setup, no: int) -> int:
    mine = setup.rows.get(no, {})
    decided = {rd for rd, r in mine.items() if r.status not in (Status.PENDING, Status.UNKNOWN)}
    return len([rd for rd in range(1, setup.planned + 1) if rd not in decided])


# --- rating goals -----------------------------------------------------------------------------

def _draft_rating(setup: _Setup, system: RatingSystem | str, on: date | None,
                  today: date | None, k_default: int, k_lookup: KLookup | None = None
                  ) -> tuple[TournamentRating, RatingSystem]:
    """The event rated once with every game still to play drawn (assumed opponents added):
    each such game's K and E are the final event's, whatever its result."""
    t = setup.t
    extra: list[Player] = []
    filled: dict[tuple[int, int], RoundResult] = {}
    for no, slots in setup.slots.items():
        for s in slots:
            opp = s.opponent_no
            if opp is None:
                opp = setup.ghosts + len(extra)
                extra.append(Player(start_no=opp, name="assumed opponent",
                                    rating=setup.assumed[no]))
            filled[(no, s.round)] = RoundResult(
                start_no=no, round=s.round, status=Status.PLAYED, opponent_no=opp,
                colour=s.row.colour if s.row is not None else Colour.NONE, points=_HALF)
    results = [filled.pop((r.start_no, r.round), r) for r in t.results]
    draft = replace(t, players=(*t.players, *extra), results=(*results, *filled.values()))
    rating = rate_tournament(draft, system, k_default=k_default, on=on, today=today,
                             k_lookup=k_lookup)
    if isinstance(system, str):
        system = registry.build(system, registry.Settings(
            on=rating.on, rating_list=rating.rating_list, k_default=k_default))
    return rating, system


def _slopes(pr: PlayerRating, slots: Sequence[_Slot]) -> tuple[Decimal, list[Decimal]] | None:
    """The player's change with every game to play drawn, and each such game's K (0 when
    not rated); None when a game's change is not K × (S − E)."""
    lines = {ln.round: ln for ln in pr.rounds}
    slopes = []
    for s in slots:
        ln = lines.get(s.round)
        if ln is None or not ln.rated:
            slopes.append(Decimal(0))
            continue
        if ln.k is None or ln.expected is None or ln.change != ln.k * (_HALF - ln.expected):
            return None
        slopes.append(Decimal(ln.k))
    return pr.change, slopes


@dataclass(frozen=True, slots=True)
class _Span:
    """For each total (in half points) over the games to play: the least and the most the
    change can be, and a way of scoring each."""

    low: dict[int, tuple[Decimal, tuple[int, ...]]]
    high: dict[int, tuple[Decimal, tuple[int, ...]]]


def _span(drawn: Decimal, slopes: Sequence[Decimal]) -> _Span:
    """Every way of scoring, by total: the change is *drawn* + Σ K (S − ½)."""
    low: dict[int, tuple[Decimal, tuple[int, ...]]] = {0: (drawn, ())}
    high = dict(low)
    for k in slopes:
        new_low: dict[int, tuple[Decimal, tuple[int, ...]]] = {}
        new_high: dict[int, tuple[Decimal, tuple[int, ...]]] = {}
        for total in low:
            for halves in (0, 1, 2):
                step = k * (Decimal(halves) / 2 - _HALF)
                for table, new, better in ((low, new_low, min), (high, new_high, max)):
                    value, way = table[total]
                    cand = (value + step, (*way, halves))
                    old = new.get(total + halves)
                    if old is None or better(old[0], cand[0]) != old[0]:
                        new[total + halves] = cand
        low, high = new_low, new_high
    return _Span(low, high)


def _rating_need(p: Player, pr: PlayerRating, system: RatingSystem, span: _Span,
                 games: tuple[RemainingGame, ...], rounds_left: int, kind: GoalKind,
                 threshold: int, meanings: tuple[Meaning, ...] = ()) -> Need:
    """A rating goal: the new rating at or above *threshold*."""
    own = pr.rating
    assert own is not None

    def new(change: Decimal) -> int | None:
        return system.new_rating(own, change)

    def reaches(change: Decimal) -> bool:
        rating = new(change)
        return rating is not None and rating >= threshold

    totals = sorted(span.low)
    every = [h for h in totals if reaches(span.low[h][0])]
    some = [h for h in totals if reaches(span.high[h][0])]
    verdict = (Verdict.CERTAIN if len(every) == len(totals) else
               Verdict.IN_REACH if some else Verdict.OUT_OF_REACH)
    witness = tuple(Decimal(h) / 2 for h in span.high[some[0]][1]) if some else ()
    estimate = any(g.assumed for g in games)
    return Need(start_no=p.start_no, name=p.name, kind=kind, verdict=verdict, games=games,
                rounds_left=rounds_left,
                guaranteed=Decimal(every[0]) / 2 if every else None,
                possible=Decimal(some[0]) / 2 if some else None, witness=witness,
                threshold=threshold, rating=own, keep=own >= threshold, meanings=meanings,
                least=new(span.low[0][0]), most=new(span.high[totals[-1]][0]),
                estimate=estimate, assumption=_assumption_words(games) if estimate else "")


def _assumption_words(games: Sequence[RemainingGame], norm: NormTitle | None = None) -> str:
    assumed = [g for g in games if g.assumed]
    if not assumed:
        return ""
    rounds = rounds_words([g.round for g in assumed])
    rated = (f"rated {assumed[0].rating}" if assumed[0].rating is not None
             else "without a rating")
    who = f"an estimate: {rounds} against opponents {rated}"
    if norm is not None:
        held = f", holding the {norm} title" if assumed[0].title else ""
        who += f"{held}, from federations not met yet"
    return who


def _title_ratings(fide_rules: FideRules) -> tuple[tuple[str, int, str], ...]:
    """The ratings the Title Regulations ask for a title: (title, rating, article).

    1.5.3: GM 2500, IM 2400, WGM 2300, WIM 2200 ("to have achieved at some time"); 1.3: FM
    2300, CM 2200, WFM 2100, WCM 2000 (titles by rating, 30 rated games by then).  The IM
    rating is the K-10 threshold of the Rating Regulations (R24 8.3.3), read from the rule
    values (no other module spells it)."""
    return (("GM", 2500, "1.5.3"), ("IM", fide_rules.top_threshold, "1.5.3"),
            ("WGM", 2300, "1.5.3"), ("FM", 2300, "1.3.1"), ("WIM", 2200, "1.5.3"),
            ("CM", 2200, "1.3.2"), ("WFM", 2100, "1.3.3"), ("WCM", 2000, "1.3.4"))


_WOMEN = frozenset({"WGM", "WIM", "WFM", "WCM"})


def _meanings(p: Player, pr: PlayerRating, system: RatingSystem, fide_rules: FideRules,
              norm_rules: NormRules, rating_list: RatingList, target: int | None
              ) -> dict[int, list[Meaning]]:
    """What each threshold means for *p*: a title's rating the player does not have yet
    (standard ratings only: Title Regulations 0.5), K 10 from the next list (FIDE, a player
    not at K 10 yet), the user's target."""
    out: dict[int, list[Meaning]] = {}
    if isinstance(system, FideSystem) and rating_list is RatingList.STANDARD:
        table = _title_ratings(fide_rules)
        held = max((r for t, r, _ in table if t == p.title.upper()), default=0)
        woman = is_woman(p, norm_rules) is True
        for title, rating, article in table:
            if rating > held and (woman or title not in _WOMEN):
                kind = "title's rating" if article == "1.5.3" else "title (by rating)"
                out.setdefault(rating, []).append(Meaning(
                    words=f"the {title} {kind}", article=f"Title Regulations {article}"))
    if isinstance(system, FideSystem) and not _at_top(p, pr, fide_rules):
        out.setdefault(fide_rules.top_threshold, []).append(Meaning(
            words=f"K {fide_rules.k_top} from the next list", article="Rating Regulations 8.3.3"))
    if target is not None:
        out.setdefault(target, []).append(Meaning(words="your target"))
    return out


def _at_top(p: Player, pr: PlayerRating, fide_rules: FideRules) -> bool:
    """Whether the player has K 10 already (R24 8.3.3: a published 2400 once, a GM or IM)."""
    return (p.title.upper() in MASTER_TITLES or fide_rules.reaches_top(pr.rating)
            or (pr.k_before_cap or pr.k) == fide_rules.k_top)


def _rating_needs(setup: _Setup, p: Player, draft: TournamentRating, system: RatingSystem,
                  target: int | None, games: tuple[RemainingGame, ...], rounds_left: int
                  ) -> tuple[list[Need], list[str]]:
    pr = draft.player(p.start_no)
    if pr is None or pr.rating is None or not p.rating_known:
        why = ("the source does not show the player's rating" if not p.rating_known
               else "unrated: no rating goals (a first rating is not forecast here)")
        return [], [why]
    found = _slopes(pr, setup.slots[p.start_no])
    if found is None:
        return [], [f"no rating goals: {draft.label} does not change a rating by K × (S − E) "
                    "game by game"]
    span = _span(*found)
    fide_rules = (system.rules if isinstance(system, FideSystem)
                  else rules_for(draft.on, draft.rating_list))
    meanings = _meanings(p, pr, system, fide_rules, setup.norms.rules, draft.rating_list,
                         target)
    candidates = sorted({*PLAIN_THRESHOLDS, fide_rules.top_threshold, *meanings})
    found_needs = [_rating_need(p, pr, system, span, games, rounds_left, GoalKind.RATING, thr,
                                tuple(meanings.get(thr, ()))) for thr in candidates]
    verdicts = {thr: n.verdict for thr, n in zip(candidates, found_needs, strict=True)}
    certain = [thr for thr, v in verdicts.items() if v is Verdict.CERTAIN]
    beyond = [thr for thr, v in verdicts.items() if v is Verdict.OUT_OF_REACH]
    listed: set[int | None] = {thr for thr, v in verdicts.items() if v is Verdict.IN_REACH}
    listed |= {target, max(certain, default=None), min(beyond, default=None)}
    out = [n for n in found_needs if n.threshold in listed]
    own = pr.rating
    out += [_rating_need(p, pr, system, span, games, rounds_left, kind, thr)
            for kind, thr in ((GoalKind.GAIN, own + 1), (GoalKind.NO_LOSS, own))]
    return out, []


# --- norm goals -------------------------------------------------------------------------------

def _norm_need(setup: _Setup, p: Player, title: NormTitle, rounds_left: int) -> Need:
    """A norm goal: :class:`NormEvent`'s check over the player's results with the games to
    play filled in, every way of scoring them (or one per total where only it matters)."""
    norms, no = setup.norms, p.start_no
    rule = norms.rules.norm(title)
    games = _games(setup, no, rule)
    slots = setup.slots[no]
    ghosts = {g.round: _assumed_player(setup, g) for g in games if g.assumed}
    opponents = [g.opponent_no if g.opponent_no is not None else ghosts[g.round].start_no
                 for g in games]
    mine = setup.rows.get(no, {})
    fixed = [r for rd, r in mine.items() if rd not in {s.round for s in slots}]
    rr = norms.round_robin
    real_unrated = rr and any(g.opponent_no is not None and g.rating is None for g in games)

    def reached(way: Sequence[Decimal]) -> tuple[bool, NormResult, tuple[str, ...]]:
        filled = [RoundResult(start_no=no, round=s.round, status=Status.PLAYED, opponent_no=o,
                              colour=s.row.colour if s.row is not None else Colour.NONE,
                              points=pts) for s, o, pts in zip(slots, opponents, way, strict=True)]
        everyone = _everyone(setup, no, filled) if real_unrated else None
        check = norms.check(no, title, [*fixed, *filled], opponents=ghosts.values(),
                            everyone=everyone, first=True)
        return check.result is NormResult.ACHIEVED, check.result, check.reasons

    m = len(games)
    counted = sum(r.status is Status.PLAYED and norms.counts(r.opponent_no) for r in fixed)
    full = counted + sum(g.assumed or norms.counts(g.opponent_no) for g in games)
    by_total = full <= norms.least_games and not real_unrated
    ways_total = 3 ** m
    estimate_note = ""
    top = tuple(Decimal(1) for _ in games)
    best, best_result, reasons = reached(top)
    every: dict[int, bool] = {}
    some: dict[int, tuple[Decimal, ...] | None] = {}
    if not best and not real_unrated:  # the results only ever help: no way makes it
        every = dict.fromkeys(range(2 * m + 1), False)
        some = dict.fromkeys(range(2 * m + 1))
    elif by_total or ways_total > ENUMERATION_LIMIT:
        if not by_total:
            estimate_note = (f"an estimate: one way of scoring per total tried (the points in "
                             f"the earliest rounds), not all {ways_total}; leaving out games "
                             "(1.4.1e–f) could make it with less")
        for halves in range(2 * m + 1):
            way = _spread(halves, m)
            ok = reached(way)[0]
            every[halves] = ok
            some[halves] = way if ok else None
    else:
        for combo in product(_RESULTS, repeat=m):
            halves = int(sum(combo) * 2)
            ok = reached(combo)[0]
            every[halves] = every.get(halves, True) and ok
            if ok and some.get(halves) is None:
                some[halves] = combo
            some.setdefault(halves, None)
    reach_every = [h for h in sorted(every) if every[h]]
    reach_some = [h for h in sorted(some) if some[h] is not None]
    if reach_every and len(reach_every) == len(every):
        verdict = Verdict.CERTAIN
    elif reach_some:
        verdict = Verdict.IN_REACH
    elif best_result is NormResult.NOT_DECIDABLE:
        verdict = Verdict.NOT_DECIDABLE
    else:
        verdict = Verdict.OUT_OF_REACH
    assumed = _assumption_words(games, title)
    words = "; ".join(w for w in (assumed, estimate_note) if w)
    witness = some[reach_some[0]] if reach_some else None
    return Need(start_no=no, name=p.name, kind=GoalKind.NORM, verdict=verdict, games=games,
                rounds_left=rounds_left,
                guaranteed=Decimal(reach_every[0]) / 2 if reach_every else None,
                possible=Decimal(reach_some[0]) / 2 if reach_some else None,
                witness=witness or (), norm=title, estimate=bool(words), assumption=words,
                reasons=() if reach_some else reasons)


def _spread(halves: int, m: int) -> tuple[Decimal, ...]:
    """One way of scoring *halves* half points over *m* games: wins first, then a draw."""
    wins, half = divmod(halves, 2)
    return tuple(Decimal(1) if i < wins else _HALF if i == wins and half else Decimal(0)
                 for i in range(m))


def _everyone(setup: _Setup, no: int, filled: Sequence[RoundResult]) -> list[RoundResult]:
    """Every result of the event with *no*'s games filled in, each mirrored on the
    opponent's side (1.4.2b counts an unrated opponent's points against rated players)."""
    mirrored = {(r.opponent_no, r.round): replace(r, start_no=r.opponent_no, opponent_no=no,
                                                  points=1 - (r.points or Decimal(0)))
                for r in filled if r.opponent_no in setup.by_no and r.opponent_no is not None}
    mine: dict[tuple[int, int], RoundResult] = {(r.start_no, r.round): r for r in filled}
    out = []
    for r in setup.t.results:
        key = (r.start_no, r.round)
        out.append(mine.pop(key) if key in mine else mirrored.pop(key, r))
    return [*out, *mine.values(), *mirrored.values()]


# --- one player -------------------------------------------------------------------------------

def _player(setup: _Setup, no: int, draft: TournamentRating, system: RatingSystem,
            target: int | None) -> PlayerNeeds:
    p = setup.by_no[no]
    games = _games(setup, no)
    rounds_left = _rounds_left(setup, no)
    needs, notes = _rating_needs(setup, p, draft, system, target, games, rounds_left)
    if games:  # with nothing to play, a norm is the norm check's (rating.norms) alone
        needs += [_norm_need(setup, p, title, rounds_left)
                  for title in norms_sought(p, setup.norms.rules)]
    return PlayerNeeds(start_no=no, name=p.name, rating=p.rating, rounds_left=rounds_left,
                       games=games, assumed_rating=setup.assumed[no],
                       assumption=setup.assumption, needs=tuple(needs), notes=tuple(notes))


# --- words ------------------------------------------------------------------------------------

def _from(points: Decimal | None, m: int) -> str:
    """'3 from 5'."""
    return f"{points_words(points or Decimal(0))} from {m}"


def _from_last(n: Need, points: Decimal | None) -> str:
    """'4½ from the last 5 rounds', '1 from the last round', '2 from the 3 games to play'."""
    m = len(n.games)
    said = points_words(points or Decimal(0))
    if m == n.rounds_left:
        return f"{said} from the last round" if m == 1 else f"{said} from the last {m} rounds"
    return f"{said} from the {m} game{'s' if m != 1 else ''} still to play"


_RESULT_WORDS = {Decimal(1): "a win", _HALF: "a draw", Decimal(0): "a loss"}


def _witness_words(n: Need) -> str:
    """'with a win against Adams in round 8 and a draw in round 9'."""
    parts = []
    for g, s in zip(n.games, n.witness, strict=True):
        against = "" if g.assumed else f" against {g.name}"
        parts.append(f"{_RESULT_WORDS[s]}{against} in round {g.round}")
    return "with " + (parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}")


def _rating_words(n: Need) -> str:
    m, label = len(n.games), n.target
    assert n.rating is not None
    if n.kind is GoalKind.RATING:
        verb = f"keeps you above {label}" if n.keep else f"takes you to {label}"
    elif n.kind is GoalKind.GAIN:
        verb = "gains you rating"
    else:
        verb = "loses you no rating"
    if n.verdict is Verdict.CERTAIN:
        if not m:
            return f"you finish on {n.least}: {_reached(n)}"
        return f"{_reached(n)} whatever happens: even 0 from {m} leaves you at {n.least}"
    if n.verdict is Verdict.OUT_OF_REACH:
        assert n.most is not None
        assert n.threshold is not None
        short = n.threshold - n.most
        lead = f"you finish on {n.most}" if not m else f"even {m} from {m} leaves you at {n.most}"
        if n.kind is GoalKind.RATING:
            return f"{lead}: {short} short of {label}"
        if n.kind is GoalKind.GAIN:
            return f"{lead}: no gain"
        return f"{lead}: {n.rating - n.most} lost"
    text = f"{_from(n.guaranteed, m)} {verb}"
    if n.possible is not None and n.possible != n.guaranteed:
        text += f"; {points_words(n.possible)} can, {_witness_words(n)}"
    return text


def _reached(n: Need) -> str:
    if n.kind is GoalKind.GAIN:
        return "you gain rating"
    if n.kind is GoalKind.NO_LOSS:
        return "you lose no rating"
    return f"you stay above {n.target}" if n.keep else f"you reach {n.target}"


def _a_norm(norm: NormTitle | None) -> str:
    """'a GM norm', 'an IM norm'."""
    return f"{'an' if norm is NormTitle.IM else 'a'} {norm} norm"


def _norm_words(n: Need) -> str:
    m = len(n.games)
    if n.verdict is Verdict.CERTAIN:
        return f"the {n.norm} norm is made whatever happens"
    if n.verdict is Verdict.NOT_DECIDABLE:
        why = next((r for r in n.reasons if r.startswith("not decidable")), "")
        why = why.removeprefix("not decidable: ")
        return f"the {n.norm} norm is not decidable{': ' + why if why else ''}"
    if n.verdict is Verdict.OUT_OF_REACH:
        why = n.reasons[0] if n.reasons else "a condition no result meets"
        lead = f", even with {m} from {m}" if m else ""
        return f"no {n.norm} norm{lead}: {why}"
    if n.guaranteed is None:
        text = f"{_from_last(n, n.possible)} can make {_a_norm(n.norm)}, {_witness_words(n)}"
        return text + " (no total makes it whatever the single results)"
    text = f"{_from_last(n, n.guaranteed)} for {_a_norm(n.norm)}"
    if n.possible is not None and n.possible != n.guaranteed:
        text += f"; {points_words(n.possible)} can, {_witness_words(n)}"
    return text


# --- thresholds crossed -----------------------------------------------------------------------

def thresholds_crossed(t: Tournament, start_nos: Iterable[int] | None = None, *,
                       system: RatingSystem | str = "fide", target: int | None = None,
                       on: date | None = None, today: date | None = None,
                       k_default: int = 20, k_lookup: KLookup | None = None,
                       rated: TournamentRating | None = None) -> tuple[Crossing, ...]:
    """Each round after which a player's live rating — the rating + the change of the rounds
    played so far, rounded as the final one is (the system's ``new_rating``) — crossed a
    threshold that changes something for that player: a title's rating (standard FIDE
    ratings), 2400 where K becomes 10 from the next list, the user's *target*; in round
    order, players in *start_nos* order (None: all).  *rated*: *t* rated already with these
    settings (a report's own rating), not rated again."""
    rating = rated or rate_tournament(t, system, k_default=k_default, on=on, today=today,
                                      k_lookup=k_lookup)
    chosen = (registry.build(system, registry.Settings(on=rating.on,
                                                       rating_list=rating.rating_list,
                                                       k_default=k_default))
              if isinstance(system, str) else system)
    fide_rules = (chosen.rules if isinstance(chosen, FideSystem)
                  else rules_for(rating.on, rating.rating_list))
    norm_rules = norm_rules_for(on or t.info.start_date or rating.on)
    by_no = t.players_by_no()
    numbers = [p.start_no for p in t.players] if start_nos is None else list(start_nos)
    out: list[Crossing] = []
    for no in numbers:
        p, pr = by_no[no], rating.player(no)
        if pr is None or pr.rating is None or not p.rating_known:
            continue
        meanings = _meanings(p, pr, chosen, fide_rules, norm_rules, rating.rating_list, target)
        live = pr.rating
        for line in pr.rounds:
            if not line.rated:
                continue
            after = chosen.new_rating(pr.rating, line.cumulative)
            if after is None:
                continue
            for threshold in sorted(meanings):
                way = (Direction.UP if live < threshold <= after else
                       Direction.DOWN if after < threshold <= live else None)
                if way is not None:
                    out.append(Crossing(start_no=no, name=p.name, round=line.round,
                                        threshold=threshold, direction=way, before=live,
                                        after=after, meanings=tuple(meanings[threshold])))
            live = after
    return tuple(out)


def _crossing_words(m: Meaning, way: Direction) -> str:
    up = way is Direction.UP
    if m.words == "your target":
        return "your target reached" if up else "below your target again"
    if m.words.startswith("K "):
        return (f"{m.words} if the event ends here ({m.article})" if up
                else f"not {m.words} if the event ends here ({m.article})")
    if up:
        return (f"{m.words} reached ({m.article}: a rating reached at some time, even in the "
                "middle of an event, counts: 1.5.3a)")
    return f"below {m.words} again (reached once, it stays reached: {m.article}, 1.5.3a)"


# --- before round 1: who can make a norm at all -----------------------------------------------

def norm_prospects(t: Tournament, start_nos: Iterable[int] | None = None, *,
                   event_class: EventClass | None = None, on: date | None = None,
                   qc_approved: bool = False) -> tuple[NormProspect, ...]:
    """Whether each player can make each norm they can seek in this event at all — from the
    start list, the number of rounds, the event's own conditions — and what stays open.

    A round robin: the opponents are known, so the answer is the norm goal of
    :func:`event_needs` (exact).  A Swiss: the field must hold what the norm's mix needs
    (1.4.1 games, 1.4.3–1.4.4 federations unless exempt, 1.4.5 titles, 1.4.8 Ra against the
    strongest opponents); who the pairings bring stays open."""
    setup = _setup(t, Assumption.AVERAGE_SO_FAR, event_class, on, qc_approved)
    numbers = [p.start_no for p in t.players] if start_nos is None else list(start_nos)
    out: list[NormProspect] = []
    for no in numbers:
        p = setup.by_no[no]
        for title in norms_sought(p, setup.norms.rules):
            if setup.norms.round_robin:
                out.append(_rr_prospect(setup, p, title))
            else:
                out.append(_swiss_prospect(setup, p, title))
    return tuple(out)


def _unchecked(setup: _Setup) -> tuple[list[str], list[str]]:
    """The event's own conditions: (failed, not known) in words."""
    failed = [c.words for c in setup.norms.administrative if c.ok is False and c.checked]
    unknown = [c.words for c in setup.norms.administrative if c.ok is None]
    return failed, unknown


def _rr_prospect(setup: _Setup, p: Player, title: NormTitle) -> NormProspect:
    """A round robin: the norm goal over the games still to play (the opponents are known)."""
    need = _norm_need(setup, p, title, _rounds_left(setup, p.start_no))
    failed, unknown = _unchecked(setup)
    met = [setup.by_no[r.opponent_no] for r in setup.rows.get(p.start_no, {}).values()
           if r.status is Status.PLAYED and setup.norms.counts(r.opponent_no)
           and r.opponent_no is not None]
    ratings = [o.rating for o in met] + [g.rating for g in need.games
                                         if g.assumed or setup.norms.counts(g.opponent_no)]
    rules = setup.norms.rules
    ra = norm_average(ratings, rules.norm(title), rules)[0] if ratings else None
    found = NormProspect(start_no=p.start_no, name=p.name, norm=title, possible=True,
                         games=len(ratings), best_ra=ra, exact=True)
    if need.verdict is Verdict.OUT_OF_REACH:
        return replace(found, possible=False, blocking=need.reasons[:3] or tuple(failed))
    if need.verdict is Verdict.NOT_DECIDABLE:
        return replace(found, possible=None, blocking=tuple(
            r for r in need.reasons if r.startswith("not decidable")))
    opened = [f"the score: {_from_last(need, need.guaranteed)}"] if need.guaranteed else []
    return replace(found, open=(*opened, *unknown), score_needed=need.guaranteed)


def _swiss_prospect(setup: _Setup, p: Player, title: NormTitle) -> NormProspect:
    rules = setup.norms.rules
    norm = rules.norm(title)
    n = min(setup.planned, len(setup.t.players) - 1)
    least = setup.norms.least_games
    field_ = [o for o in setup.t.players if o.start_no != p.start_no]
    blocking, unknown = _unchecked(setup)
    opened: list[str] = []
    if n < least:
        blocking.append(f"{n} games at most ({setup.planned} rounds, {len(field_) + 1} "
                        f"players): a norm needs {least} (1.4.1)")
    undecided: list[str] = []
    if not setup.norms.titles_shown:
        undecided.append("not decidable: the source shows no player's title (1.4.5)")
    else:
        holders = sum(o.title.upper() in norm.or_higher for o in field_)
        titled = sum(o.title.upper() in rules.titled for o in field_)
        need_holders = max(rules.title_min, ceil(rules.title_share * n))
        need_titled = ceil(rules.titled_share * n)
        if holders < need_holders:
            blocking.append(f"{holders} holder{'s' if holders != 1 else ''} of "
                            f"{'/'.join(sorted(norm.or_higher))} in the field: {need_holders} "
                            f"to meet in {n} games (1.4.5)")
        if titled < need_titled:
            blocking.append(f"{titled} titled players in the field: {need_titled} to meet in "
                            f"{n} games (1.4.5)")
    exempt, why = _field_exemption(setup, p)
    own = p.federation
    if not own or any(not o.federation for o in field_):
        undecided.append("not decidable: the source does not show every federation (1.4.3)")
    elif not exempt:
        foreign = [o for o in field_ if o.federation not in (own, rules.no_federation)]
        if len({o.federation for o in foreign}) < rules.other_federations:
            blocking.append(f"{len({o.federation for o in foreign})} federation(s) other than "
                            f"{own} in the field: {rules.other_federations} needed (1.4.3)")
        most_own = floor(rules.own_share * n)
        if len([o for o in field_ if o.federation != own]) < n - most_own:
            blocking.append(f"too few opponents from outside {own}: at most {most_own} of "
                            f"{n} may be from {own} (1.4.4)")
        if why:
            opened.append(why)
    ratings = sorted((o.rating for o in field_ if o.rating_known), key=lambda r: r or 0,
                     reverse=True)[:n]
    best_ra = norm_average(ratings, norm, rules)[0] if len(ratings) == n and n else None
    score = None
    if best_ra is not None:
        if best_ra < norm.min_ra:
            blocking.append(f"even the {n} strongest opponents average {best_ra} "
                            f"(at least {norm.min_ra}, 1.4.8)")
        else:
            score = required_score(best_ra, n, norm, rules)
            if score is None:
                blocking.append(f"no score over {n} games against Ra {best_ra} reaches "
                                f"{norm.min_rp} (1.4.8)")
    elif n:
        undecided.append("not decidable: the source does not show every rating (1.4.6)")
    opened[:0] = ["who the pairings bring: the titles, federations and Ra of the opponents "
                  "(1.4.3–1.4.8)"]
    possible: bool | None = False if blocking else (None if undecided else True)
    return NormProspect(start_no=p.start_no, name=p.name, norm=title, possible=possible,
                        games=n, blocking=tuple(blocking or undecided),
                        open=(*opened, *unknown) if possible else (), best_ra=best_ra,
                        score_needed=score if possible else None)


def _field_exemption(setup: _Setup, p: Player) -> tuple[bool, str]:
    """Whether the federation conditions are waived for the event (the event class given)
    or may be (1.4.3d: a Swiss whose start list has 20 rated players from 3 federations
    other than the host's, 10 of them GM/IM/WGM/WIM, if they all play every round)."""
    if setup.norms.exempt[0]:  # the event class given, or every round so far
        return True, ""
    rules, host = setup.norms.rules, setup.t.info.federation
    if not host:
        return False, ""
    foreign = [o for o in setup.t.players if o.rating is not None
               and o.federation not in ("", host, rules.no_federation)]
    feds = len({o.federation for o in foreign})
    titled = sum(o.title.upper() in rules.swiss_titles for o in foreign)
    if (len(foreign) >= rules.swiss_foreigners and feds >= rules.swiss_federations
            and titled >= rules.swiss_titled):
        return True, (f"the federation conditions are waived if every round has "
                      f"{rules.swiss_foreigners} rated players from {rules.swiss_federations}+ "
                      f"federations other than {host}, {rules.swiss_titled} of them "
                      f"GM/IM/WGM/WIM, as the start list allows (1.4.3d)")
    return False, ""

