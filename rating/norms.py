"""Title norms: which GM, IM, WGM or WIM norms a player's results make, condition by condition.

Pure: a :class:`~importer.model.Tournament` in, frozen records out, every threshold read from
:class:`rating.systems.fide_rules.NormRules` (FIDE Title Regulations in force from 1 January 2024, articles
cited by number).  A condition the source cannot show either way — a time control whose label
cannot be read, the registration, the chief arbiter's title, an event class not given — is
listed as "not checked"; a norm that turns on opponents' titles or federations the source does not show is
"not decidable", never "missed".  In a live event a norm is "possible" while the rounds still
to play can give it: ``needs`` says which result of the game in progress makes or keeps it
(the check rerun with that game filled in), ``points_needed`` estimates what the rounds still
to play need against opponents of the current Ra.

A norm counts the games FIDE lets it count (1.4.1d–f): in a Swiss the rounds up to any round
after which it was made (later games may be ignored), in any event without won games the
player may ignore, as long as the games left meet the number of games and the mix of
opponents (in a round robin the whole event must allow a norm); of the windows that make it,
the one counting the most games toward a title application.  The check says which rounds it
left out, after which round the norm was made, and both performances: the regulations' (the
lowest opponent raised to the floor) and the one with the opponents' own ratings.
:class:`NormEvent` checks results other than the source's (:mod:`rating.needs`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from itertools import combinations
from math import ceil, floor
from typing import Final

from importer.model import Player, RatingList, RoundResult, Status, System, Tournament
from rating.systems import fide
from rating.systems.fide import percent_h
from rating.systems.fide_rules import NormRules, NormTitle, TitleNorm, norm_rules_for
from rating.systems.fide_tables import dp_for
from rating.systems.time_controls import norm_time_control

__all__ = ["GAMES_NOT_SHOWN", "Condition", "EventClass", "NormCheck", "NormEvent", "NormResult",
           "check_event_norms", "check_norms", "excluded_opponents", "games_not_shown", "is_woman",
           "left_out_words", "norm_average", "norms_sought", "points_words", "required_score",
           "rounds_words", "swiss_exemption"]


class EventClass(StrEnum):
    """What kind of event it is, as the user says (no source shows it)."""

    NATIONAL_FINAL = "national-final"
    NATIONAL_TEAM = "national-team"
    ZONAL = "zonal"
    TEAM_CHAMPIONSHIP = "team-championship"
    """A World or Continental team or club championship (1.4.1: 7 games suffice)."""

    @property
    def words(self) -> str:
        """The class in words for people: 'a national championship final'."""
        return _CLASS_WORDS[self]


_CLASS_WORDS = {EventClass.NATIONAL_FINAL: "a national championship final",
                EventClass.NATIONAL_TEAM: "a national team championship",
                EventClass.ZONAL: "a zonal tournament",
                EventClass.TEAM_CHAMPIONSHIP: "a World or Continental team or club championship"}
_EXEMPT_CLASSES = frozenset({EventClass.NATIONAL_FINAL, EventClass.NATIONAL_TEAM, EventClass.ZONAL})
"""1.4.3: the event classes exempt from the federation conditions."""


class NormResult(StrEnum):
    """What the check finds for one norm."""

    ACHIEVED = "achieved"
    POSSIBLE = "possible"
    """A live event: not made yet, still within reach."""
    MISSED = "missed"
    NOT_DECIDABLE = "not decidable"
    """It turns on facts the source does not show."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Condition:
    """One condition of a norm: met (True), not met (False) or not known (None), in words."""

    name: str
    article: str
    ok: bool | None
    words: str
    have: str = ""
    need: str = ""
    checked: bool = True
    """False for what no source shows (time control, registration, …): never decides."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NormCheck:
    """One player's check of one title norm: the columns of ``norms.csv`` and each condition."""

    start_no: int
    name: str
    norm: NormTitle
    result: NormResult
    rounds: str
    """The rounds counted: '1-9' (in a Swiss, later rounds may be left out once it is made)."""
    games: int
    application_games: int
    """1.4.1: the games this norm counts for in a title application (0 unless achieved)."""
    score: Decimal
    ra: int | None
    ra_floor_raised: bool
    performance: int | None
    titled_opponents: int
    title_opponents: int
    """Opponents of the title sought or higher."""
    federations: int
    """Federations among the opponents other than the player's own (FID is none)."""
    own_federation: int
    """Opponents from the player's own federation."""
    exemption: str
    """Why the federation conditions are waived, when the norm needs it ('' otherwise)."""
    reasons: tuple[str, ...]
    """What is missing or unknown, in words."""
    conditions: tuple[Condition, ...]
    needs: str = ""
    """A live event: the least result of the round in progress that makes or keeps the norm
    ('win', 'draw', 'any'), or '' (none does, or no round in progress)."""
    points_needed: Decimal | None = None
    """A live event, for a norm still possible: the points needed from the rounds still to
    play, estimated against opponents of the current Ra (None when not estimated)."""
    dropped: tuple[int, ...] = ()
    """1.4.1f: the rounds of won games the counted games leave out (beaten opponents ignored:
    the games left still meet the number of games and the mix of opponents)."""
    secured_after: int | None = None
    """Achieved in a Swiss: the first round after which the results so far made the norm
    (1.4.1e: later games may be ignored); None otherwise."""
    played_after: tuple[int, ...] = ()
    """The rounds with a game over the board played after ``secured_after``."""
    true_performance: int | None = None
    """The performance with the opponents' own ratings, none raised to the floor (1.4.6b
    raises the lowest to 400 below the performance the norm needs): for information only,
    ``performance`` is the one the regulations count."""

    @property
    def window_words(self) -> str:
        """The games counted, in words: 'rounds 1-11, leaving out the win in round 3
        (1.4.1f); made after round 9, rounds 10 and 11 played after it (1.4.1e)'."""
        out = f"rounds {self.rounds}" if self.rounds else "no rounds"
        if self.dropped:
            out += (f", leaving out the win{'s' if len(self.dropped) > 1 else ''} in "
                    f"{rounds_words(self.dropped)} (1.4.1f)")
        if self.secured_after is not None and self.played_after:
            out += (f"; made after round {self.secured_after}, "
                    f"{rounds_words(self.played_after)} played after it (1.4.1e)")
        return out

    @property
    def performance_words(self) -> str:
        """Both performances, each labelled: 'performance 2600 (Title Regulations 1.4.8–1.4.9,
        the lowest opponent raised to the floor, 1.4.6b); 2575 with the opponents' own
        ratings'."""
        if self.performance is None:
            return "no performance"
        rule = ("the lowest opponent raised to the floor, 1.4.6b" if self.ra_floor_raised
                else "no opponent below the floor")
        out = f"performance {self.performance} (Title Regulations 1.4.8–1.4.9, {rule})"
        if self.true_performance is not None and self.true_performance != self.performance:
            out += f"; {self.true_performance} with the opponents' own ratings"
        return out


def rounds_words(rounds: Sequence[int]) -> str:
    """'round 3', 'rounds 3 and 7', 'rounds 3, 7 and 9', 'rounds 1–9', 'rounds 2, 5–7 and 9'
    (three rounds or more in a row as a span)."""
    spans: list[list[int]] = []
    for rd in sorted(rounds):
        if spans and rd == spans[-1][-1] + 1:
            spans[-1].append(rd)
        else:
            spans.append([rd])
    parts = [f"{s[0]}–{s[-1]}" if len(s) > 2 else ", ".join(map(str, s)) for s in spans]
    said = ", ".join(parts)
    if len(rounds) == 1:
        return f"round {said}"
    head, _, tail = said.rpartition(", ")
    return f"rounds {head} and {tail}" if head else f"rounds {said}"


@dataclass(frozen=True, slots=True)
class _Game:
    opponent: Player
    points: Decimal


def is_woman(player: Player, rules: NormRules) -> bool | None:
    """True for a women's title or the source's sex field saying so; None when not shown."""
    if player.title.upper() in rules.women_titles or player.sex.lower() in ("w", "f"):
        return True
    return False if player.sex.lower() == "m" else None


def norms_sought(player: Player, rules: NormRules) -> tuple[NormTitle, ...]:
    """The norms *player* can seek (a player of unknown sex: only GM and IM)."""
    title, woman = player.title.upper(), is_woman(player, rules)
    return tuple(n.title for n in rules.norms
                 if title not in n.barred and (woman is True or not n.women_only))


def swiss_exemption(t: Tournament, rules: NormRules) -> tuple[bool | None, str]:
    """1.4.3d: whether every round had enough rated foreign players, titled ones among them
    (counting players who missed at most one round), and why, in words."""
    if t.info.system is not System.SWISS:
        return False, "not a Swiss event"
    host = t.info.federation
    if not host:
        return None, "the source does not show the host federation"
    rounds = t.rounds_seen  # the rounds the source shows so far
    if not rounds:
        return None, "no round has been played yet"
    present: dict[int, set[int]] = {}
    for r in t.results:
        if _present(r):
            present.setdefault(r.round, set()).add(r.start_no)
    counted = [p for p in t.players if p.rating is not None and p.federation
               not in ("", host, rules.no_federation)
               and rounds - sum(p.start_no in present.get(rd, ()) for rd in range(1, rounds + 1))
               <= rules.swiss_missed]
    for rd in range(1, rounds + 1):
        here = [p for p in counted if p.start_no in present.get(rd, ())]
        feds = len({p.federation for p in here})
        titled = sum(p.title.upper() in rules.swiss_titles for p in here)
        if (len(here) < rules.swiss_foreigners or feds < rules.swiss_federations
                or titled < rules.swiss_titled):
            return False, (f"round {rd} had {len(here)} rated players from outside {host} "
                           f"({feds} federations, {titled} GM/IM/WGM/WIM); the exemption needs "
                           f"{rules.swiss_foreigners} from {rules.swiss_federations} federations, "
                           f"{rules.swiss_titled} of them GM/IM/WGM/WIM, in every round")
    return True, (f"a Swiss with at least {rules.swiss_foreigners} rated players from "
                  f"{rules.swiss_federations} or more federations other than {host} in every "
                  f"round, {rules.swiss_titled} of them GM/IM/WGM/WIM (1.4.3d)")


def _present(r: RoundResult) -> bool:
    """At the board or given a pairing-allocated bye (a requested bye is a round missed)."""
    return (r.status in (Status.PLAYED, Status.PENDING, Status.FORFEIT_WIN, Status.UNPLAYED)
            or (r.status is Status.BYE and not r.requested))


def check_norms(t: Tournament, start_no: int, *, event_class: EventClass | None = None,
                on: date | None = None, qc_approved: bool = False) -> tuple[NormCheck, ...]:
    """The check of every norm the player with *start_no* can seek (1.4.1–1.4.9)."""
    return check_event_norms(t, (start_no,), event_class=event_class, on=on,
                             qc_approved=qc_approved)


def check_event_norms(t: Tournament, start_nos: Iterable[int] | None = None, *,
                      event_class: EventClass | None = None, on: date | None = None,
                      qc_approved: bool = False) -> tuple[NormCheck, ...]:
    """:func:`check_norms` of the players with *start_nos* (None: every player), in that
    order; what the event's players share is worked out once.  *qc_approved*: FIDE's
    Qualification Commission approved the event's fast-standard time control for norms, as
    the user says (:func:`rating.systems.time_controls.norm_time_control`)."""
    day = on or t.info.start_date
    rules = norm_rules_for(day or date.max)
    event = _Event.of(t, rules, event_class, day, qc_approved)
    numbers = [p.start_no for p in t.players] if start_nos is None else list(start_nos)
    return tuple(c for no in numbers for c in _player_norms(event, no))


def _player_norms(event: _Event, start_no: int) -> tuple[NormCheck, ...]:
    rules = event.rules
    player = event.by_no.get(start_no)
    if player is None:
        raise KeyError(f"no player with start number {start_no}")
    sought = norms_sought(player, rules)
    extra = _unknown_sex(player, rules)
    results = event.results.get(start_no, [])
    if games_not_shown(player, results):
        return tuple(_not_shown(event, player, rules.norm(title), extra) for title in sought)
    checks = [_best(event, player, rules.norm(title), extra, results) for title in sought]
    game = next((r for r in results if r.round == event.live_round
                 and r.status is Status.PENDING and r.opponent_no in event.by_no), None)
    if game is None:
        return tuple(checks)
    outcomes = [_filled(event, results, game, points) for points in _OUTCOMES]
    remaining = max(event.planned - _done(results), 0)
    return tuple(_forecast(c, [_best(ev, player, rules.norm(c.norm), extra, filled)
                               for ev, filled in outcomes], game, remaining,
                           event.planned - game.round) for c in checks)


GAMES_NOT_SHOWN: Final = ("not decidable from this page: it shows the player's points but "
                          "none of the games (the crosstable or the pairings show them)")
"""Why a norm is not decided for a player whose games the source does not show."""


def games_not_shown(player: Player, results: Sequence[RoundResult]) -> bool:
    """The source prints the player's standing (points) but none of their rounds: a ranking
    list alone.  The games were played, against opponents the page does not name, so no norm
    is possible, made or missed from it, and no round is 'still to play'."""
    return player.points is not None and all(r.status is Status.UNKNOWN for r in results)


def _not_shown(event: _Event, player: Player, norm: TitleNorm, extra: tuple[Condition, ...]
               ) -> NormCheck:
    """The check of a player whose games the source does not show: not decidable."""
    games = Condition(name="games", article="1.4.1", ok=None, words=GAMES_NOT_SHOWN)
    return NormCheck(
        start_no=player.start_no, name=player.name, norm=norm.title,
        result=NormResult.NOT_DECIDABLE, rounds="", games=0, application_games=0,
        score=Decimal(0), ra=None, ra_floor_raised=False, performance=None, titled_opponents=0,
        title_opponents=0, federations=0, own_federation=0, exemption="",
        reasons=(GAMES_NOT_SHOWN,), conditions=(games, *event.admin, *extra))


def _unknown_sex(player: Player, rules: NormRules) -> tuple[Condition, ...]:
    """The note on the women's norms of a player the source does not show the sex of."""
    if is_woman(player, rules) is not None or not norms_sought(player, rules):
        return ()
    return (Condition(name="women's norms", article="1.4", ok=None, checked=False,
                      words="not checked: WGM and WIM norms (the source does not show whether "
                            "the player is a woman)"),)


_OUTCOMES = {Decimal(0): "any", Decimal("0.5"): "draw", Decimal(1): "win"}
"""The results of the round in progress, least first, and what ``needs`` says when it is the
least that makes or keeps the norm."""
_KEPT = (NormResult.ACHIEVED, NormResult.POSSIBLE)


def _forecast(check: NormCheck, reruns: Sequence[NormCheck], game: RoundResult, remaining: int,
              after: int) -> NormCheck:
    """*check* of a player whose game of the round in progress is pending, given the check
    rerun with that game lost, drawn and won: the least result that makes or keeps the norm
    decides whether it is still possible.  The estimate of the points the *remaining* rounds
    need takes this round's opponent as paired (the least over its results of their points
    and what the rerun still needs from the rounds *after* it); none when this is the last."""
    needs = next((word for word, c in zip(_OUTCOMES.values(), reruns, strict=True)
                  if c.result in _KEPT), "")
    if check.result is NormResult.ACHIEVED:
        return replace(check, needs=needs)
    reasons = tuple(r for r in check.reasons
                    if r != _rounds_left(check.points_needed, remaining, check.ra))
    if needs:
        estimate = min((points + (c.points_needed or 0) for points, c in zip(
            _OUTCOMES, reruns, strict=True) if c.result is NormResult.ACHIEVED
            or c.points_needed is not None), default=None) if after > 0 else None
        return replace(check, result=NormResult.POSSIBLE, needs=needs, points_needed=estimate,
                       reasons=(*reasons, _rounds_left(estimate, remaining, reruns[-1].ra,
                                                       paired=True)))
    result = reruns[-1].result  # missed, or not decidable (its reasons say why)
    reach = "keep it within reach" if after > 0 else "make it"
    missed = (f"round {game.round}: not even a win would {reach}",)
    return replace(check, result=result, points_needed=None,
                   reasons=(*reasons, *(missed if result is NormResult.MISSED else ())))


def _filled(event: _Event, results: Sequence[RoundResult], game: RoundResult, points: Decimal
            ) -> tuple[_Event, list[RoundResult]]:
    """The event and the player's results with the pending *game* scored *points* (the
    opponent's result mirrored); only a round robin's excluded players can change besides."""
    mine = replace(game, status=Status.PLAYED, points=points)
    filled = [mine if r is game else r for r in results]
    if event.t.info.system is not System.ROUND_ROBIN:
        return event, filled
    theirs = {(game.opponent_no, game.round)}
    everyone = (mine if r is game else replace(r, status=Status.PLAYED, points=1 - points)
                if (r.start_no, r.round) in theirs and r.status is Status.PENDING else r
                for r in event.t.results)
    return replace(event, excluded=_zero_unrated(everyone, event.by_no)), filled


@dataclass(frozen=True, slots=True)
class _Event:
    """What every check of one tournament shares."""

    t: Tournament
    rules: NormRules
    event_class: EventClass | None
    by_no: dict[int, Player]
    planned: int
    excluded: frozenset[int]
    """1.4.2: in a round robin, unrated players who scored 0 against rated opponents."""
    titles_shown: bool
    exempt: tuple[bool | None, str]
    admin: tuple[Condition, ...]
    live_round: int | None
    """The round in progress: the last with a paired game not yet decided (None: none)."""
    results: dict[int, list[RoundResult]]
    """Each player's results, in round order."""

    @classmethod
    def of(cls, t: Tournament, rules: NormRules, event_class: EventClass | None,
           day: date | None, qc_approved: bool = False) -> _Event:
        if event_class in _EXEMPT_CLASSES:
            exempt: tuple[bool | None, str] = (True, f"{event_class.words} (1.4.3)")
        else:
            exempt = swiss_exemption(t, rules)
        by_no = t.players_by_no()
        live = max((r.round for r in t.results
                    if r.status is Status.PENDING and r.opponent_no is not None), default=None)
        return cls(t, rules, event_class, by_no, t.info.rounds or t.rounds_seen,
                   excluded_opponents(t, by_no), any(p.title for p in t.players), exempt,
                   _administrative(t, rules, day, event_class, qc_approved), live,
                   _by_player(t.results))


@dataclass(frozen=True, slots=True)
class NormEvent:
    """One tournament's norm checks over results other than the source's: :mod:`rating.needs`
    fills in the games still to play (against assumed opponents where no pairing is known)
    and asks whether a norm is made.  What the event's players share is worked out once."""

    _event: _Event

    @classmethod
    def of(cls, t: Tournament, *, event_class: EventClass | None = None, on: date | None = None,
           qc_approved: bool = False) -> NormEvent:
        """The event as :func:`check_event_norms` sees it."""
        day = on or t.info.start_date
        rules = norm_rules_for(day or date.max)
        return cls(_Event.of(t, rules, event_class, day, qc_approved))

    @property
    def rules(self) -> NormRules:
        """The Title Regulations applied."""
        return self._event.rules

    @property
    def planned(self) -> int:
        """The rounds of the event (the rounds shown when the source gives no number)."""
        return self._event.planned

    @property
    def least_games(self) -> int:
        """1.4.1: the games a norm needs (9; 7 in a World or Continental team championship)."""
        return _least(self._event)

    @property
    def round_robin(self) -> bool:
        """Predetermined pairings: every round counts (1.4.1e)."""
        return self._event.t.info.system is System.ROUND_ROBIN

    @property
    def titles_shown(self) -> bool:
        """Whether the source shows any player's title (1.4.5 is decidable)."""
        return self._event.titles_shown

    @property
    def exempt(self) -> tuple[bool | None, str]:
        """Whether the federation conditions are waived (1.4.3: the event class given, or a
        Swiss with enough foreign players in every round shown so far), and why."""
        return self._event.exempt

    @property
    def administrative(self) -> tuple[Condition, ...]:
        """The event's own conditions (1.1 and the event class): what no result changes."""
        return self._event.admin

    def counts(self, opponent_no: int | None) -> bool:
        """Whether a game against this player counts for a norm (1.4.2: a player of the
        event, not a round robin's unrated player who scored 0 against rated ones)."""
        return opponent_no in self._event.by_no and opponent_no not in self._event.excluded

    def check(self, start_no: int, title: NormTitle, results: Sequence[RoundResult], *,
              opponents: Iterable[Player] = (), everyone: Iterable[RoundResult] | None = None,
              first: bool = False) -> NormCheck:
        """The check of *title*'s norm for the player with *start_no* over *results* (the
        player's own, any round), as :func:`check_norms` finds it on a tournament with those
        results: *opponents* are players the source does not list (assumed opponents of
        rounds not paired yet); in a round robin *everyone*'s results (as filled in) decide
        which unrated players scored 0 against rated ones (1.4.2b).  *first*: only whether
        the norm is made matters (the first window that makes it, not the best)."""
        event = self._event
        extra = {p.start_no: p for p in opponents}
        if extra:
            event = replace(event, by_no={**event.by_no, **extra})
        if everyone is not None and event.t.info.system is System.ROUND_ROBIN:
            event = replace(event, excluded=_zero_unrated(everyone, event.by_no))
        player = event.by_no[start_no]
        return _best(event, player, event.rules.norm(title), _unknown_sex(player, event.rules),
                     sorted(results, key=lambda r: r.round), first=first)


def _by_player(results: Iterable[RoundResult]) -> dict[int, list[RoundResult]]:
    out: dict[int, list[RoundResult]] = {}
    for r in sorted(results, key=lambda r: r.round):
        out.setdefault(r.start_no, []).append(r)
    return out


def excluded_opponents(t: Tournament, by_no: dict[int, Player] | None = None) -> frozenset[int]:
    """1.4.2: the players whose games count for no one's norm: in a round robin, the unrated
    who scored 0 against rated opponents."""
    if t.info.system is not System.ROUND_ROBIN:
        return frozenset()
    return _zero_unrated(t.results, by_no if by_no is not None else t.players_by_no())


def _zero_unrated(results: Iterable[RoundResult], by_no: dict[int, Player]) -> frozenset[int]:
    """Unrated players whose games against rated opponents scored nothing (1.4.2)."""
    scored: dict[int, Decimal] = {}
    for r in results:
        opp = by_no.get(r.opponent_no) if r.opponent_no is not None else None
        me = by_no.get(r.start_no)
        if (r.status is Status.PLAYED and me is not None and me.rating is None
                and opp is not None and opp.rating is not None):
            scored[r.start_no] = scored.get(r.start_no, Decimal(0)) + (r.points or 0)
    return frozenset(no for no, s in scored.items() if s == 0)


def _administrative(t: Tournament, rules: NormRules, day: date | None,
                    event_class: EventClass | None, qc_approved: bool = False
                    ) -> tuple[Condition, ...]:
    """1.1 and the event class: what the pages show of them, and what they do not."""
    out = []
    if t.info.rating_list in (RatingList.RAPID, RatingList.BLITZ):
        out.append(Condition(name="time control", article="1.1", ok=False,
                             words=f"a {t.info.rating_list.value} event: norms come only from "
                                   "standard games"))
    else:  # the label read: at least 2 hours for 60 moves, or FIDE's fast-standard terms
        tc = norm_time_control(t.info.time_control, day, rules, qc_approved=qc_approved)
        out.append(Condition(name="time control", article="1.1", ok=tc.ok, checked=tc.checked,
                             words=tc.words, have=tc.have, need=tc.need))
    dates = t.info.round_dates
    if dates and len(dates) >= t.rounds_seen and all(dates):
        busiest = max(Counter(dates).values())
        most = rules.most_rounds_a_day
        out.append(Condition(name="rounds a day", article="1.1", ok=busiest <= most,
                             words=f"at most {busiest} round{'s' if busiest != 1 else ''} a "
                                   f"day ({most} allowed)"))
    else:
        out.append(Condition(name="rounds a day", article="1.1", ok=None, checked=False,
                             words=f"not checked: at most {rules.most_rounds_a_day} rounds a "
                                   "day (the round dates are not all shown)"))
    out.append(Condition(name="registration", article="1.1", ok=None, checked=False,
                         words="not checked: the event registered with FIDE 30 days ahead"))
    out.append(Condition(name="chief arbiter", article="1.1", ok=None, checked=False,
                         words="not checked: the chief arbiter is an IA or FA and does not "
                               "play"))
    if event_class is None:
        out.append(Condition(name="event class", article="1.4.1, 1.4.3", ok=None, checked=False,
                             words="not checked: the event class (a national championship "
                                   "final, national team championship or zonal is exempt from "
                                   "the federation conditions; a World or Continental team "
                                   f"championship needs {rules.team_min_games} games)"))
    start, end = t.info.start_date, t.info.end_date
    if start and end and (end - start).days > rules.long_event_days:
        out.append(Condition(name="ratings when played", article="1.1.4", ok=None, checked=False,
                             words=f"not checked: an event of more than {rules.long_event_days} "
                                   "days counts the ratings in force when each game was played"))
    if day is not None and day < rules.valid_from:
        out.append(Condition(name="regulations", article="", ok=None, checked=False,
                             words=f"not checked: the event began before the {rules.name}, "
                                   "which this check applies"))
    return tuple(out)


def _best(event: _Event, player: Player, norm: TitleNorm, extra: tuple[Condition, ...],
          results: Sequence[RoundResult], *, first: bool = False) -> NormCheck:
    """The check over all rounds played; where the norm is made, the window of games that
    counts the most games toward a title application (1.4.1d): in a Swiss the rounds up to
    any round after which it was made (1.4.1e), in any event without won games the player may
    ignore (1.4.1f: the games left still meet the number of games and the mix of opponents; in
    a round robin the whole event's mix must allow a norm).  *first*: the first window found
    that makes it (only whether the norm is made matters), not the best."""
    done = _done(results)
    remaining = max(event.planned - done, 0)
    full = _check(event, player, norm, results, done, remaining, extra)
    rr = event.t.info.system is System.ROUND_ROBIN
    if first and full.result is NormResult.ACHIEVED:
        return full
    if rr and (remaining or not _whole_mix(full)):  # 1.4.1e: a round robin counts every round
        return full
    lasts = [done] if rr else range(done, max(_least(event) - 1, 1) - 1, -1)
    made: list[NormCheck] = []
    for last in lasts:
        whole = full if last == done else _check(event, player, norm, results, last,
                                                 remaining, extra)
        if whole.result is NormResult.ACHIEVED:
            if first:
                return whole
            made.append(whole)
        if not _drops_may_help(event, norm, whole, results, last):
            continue
        for drop in _droppable(event, results, last):
            c = _check(event, player, norm, results, last, remaining, extra, drop)
            if c.result is NormResult.ACHIEVED:
                if first:
                    return c
                made.append(c)
    if not made:
        return full
    best = max(made, key=_window_key)
    if rr:
        return best
    secured = min(_last(c) for c in made)  # the first round after which it was made
    after = tuple(r.round for r in results if secured < r.round <= done
                  and r.status is Status.PLAYED)
    return replace(best, secured_after=secured, played_after=after)


def _last(check: NormCheck) -> int:
    """The last round a check counts ('1-9' → 9)."""
    return int(check.rounds.rsplit("-", 1)[-1]) if check.rounds else 0


def _window_key(c: NormCheck) -> tuple[int, int, int, int, int, tuple[int, ...]]:
    """Which achieving window counts: the most games toward a title application (1.4.1d),
    then the most games, the longest, the best performance and Ra, then leaving out the
    earliest rounds (the norm oracle of the tests picks the same)."""
    return (c.application_games, c.games, _last(c), c.performance or 0, c.ra or 0,
            tuple(-r for r in c.dropped))


def _whole_mix(full: NormCheck) -> bool:
    """1.4.1f in a round robin: every condition of the whole event that no result changes
    (the games, Ra, titles, federations, the event itself) allows a norm."""
    return all(c.ok is True for c in full.conditions
               if c.checked and c.name not in _RESULT_CONDITIONS)


_RESULT_CONDITIONS = frozenset({"performance", "score"})
"""The conditions the results decide; the others are the mix of opponents and the event."""


def _droppable(event: _Event, results: Sequence[RoundResult], last: int
               ) -> Iterable[frozenset[int]]:
    """1.4.1f: the sets of won games (their rounds) the player may ignore in rounds 1..*last*,
    none empty, as long as the games left can still number the least a norm needs."""
    counted = [r for r in results if r.round <= last and _counted(event, r)]
    wins = [r.round for r in counted if r.points == 1]
    spare = len(counted) - _least(event)
    for size in range(1, min(max(spare, 0), len(wins)) + 1):
        for drop in combinations(wins, size):
            yield frozenset(drop)


_NOT_MENDED = frozenset({"games", "score", "federations"})
"""Conditions no won game left out can mend: fewer games, a lower share of the points (a win
is above any share below 1), no more federations."""


def _drops_may_help(event: _Event, norm: TitleNorm, whole: NormCheck,
                    results: Sequence[RoundResult], last: int) -> bool:
    """Whether leaving won games of rounds 1..*last* out could make the norm where *whole*
    (the check of all of them) does not, or count more games toward a title application than
    *whole* does (1.4.1d).  A bound, never a guess: leaving d games out, Ra is at most the
    average of the n − d highest opponents (each at least the floor), dp at most the one of
    the share of all n, and the titled opponents no more than all n have; no more is tried
    when even these miss."""
    rules = event.rules
    counted = [r for r in results if r.round <= last and _counted(event, r)]
    n, score = len(counted), whole.score
    spare = min(n - _least(event), sum(r.points == 1 for r in counted))
    if spare <= 0:
        return False
    failed = {c.name for c in whole.conditions if c.checked and c.ok is False}
    if failed & (_NOT_MENDED | {c.name for c in event.admin}):
        return False
    opponents = [event.by_no[r.opponent_no] for r in counted if r.opponent_no is not None]
    if not all(o.rating_known for o in opponents):
        return True  # no bound: a rating not shown may be the one left out
    values = sorted((max(o.rating if o.rating is not None else rules.unrated, norm.floor)
                     for o in opponents), reverse=True)
    dp = dp_for(percent_h(int(score * 100), n))
    for d in range(1, spare + 1):
        ra = fide.average_rating(values[:n - d])
        if ra < norm.min_ra or ra + dp < norm.min_rp:
            continue
        if event.titles_shown and (  # 1.4.5: leaving games out adds no titled opponent
                whole.title_opponents < max(rules.title_min, ceil(rules.title_share * (n - d)))
                or whole.titled_opponents < ceil(rules.titled_share * (n - d))):
            continue
        if whole.result is not NormResult.ACHIEVED:
            return True
        needed = required_score(ra, n - d, norm, rules)
        if needed is not None and min(rules.most_games, n - d + max(
                floor(score - d - needed), 0)) > whole.application_games:
            return True
    return False


def _counted(event: _Event, r: RoundResult) -> bool:
    """A game over the board against an opponent whose games count (1.4.2)."""
    return (r.status is Status.PLAYED and r.opponent_no in event.by_no
            and r.opponent_no not in event.excluded)


def _done(results: Sequence[RoundResult]) -> int:
    """The rounds decided, one after another from round 1 (a player's results, in order)."""
    done = 0
    for r in results:
        if r.round != done + 1 or r.status in (Status.PENDING, Status.UNKNOWN):
            break
        done = r.round
    return done


def _check(event: _Event, player: Player, norm: TitleNorm, results: Sequence[RoundResult],
           last: int, remaining: int, extra: tuple[Condition, ...],
           dropped: frozenset[int] = frozenset()) -> NormCheck:
    """The check over rounds 1..*last* without the won games of the rounds *dropped* (1.4.1f)."""
    rules, by_no = event.rules, event.by_no
    window = [r for r in results if r.round <= last]
    counted = [r for r in window if _counted(event, r) and r.round not in dropped]
    games = [_Game(by_no[r.opponent_no], r.points or Decimal(0)) for r in counted
             if r.opponent_no is not None]
    n = len(games)
    score = sum((g.points for g in games), Decimal(0))
    left_out = [r for r in window if not _counted(event, r)]
    ignored = [r for r in window if r.round in dropped]
    conditions = [_games(event, left_out, n, last, ignored)]
    ra, raised = _ra(games, norm, rules)
    rp = None if ra is None or not n else ra + dp_for(percent_h(int(score * 100), n))
    own_ra = _ra(games, norm, rules, raise_lowest=False)[0]
    true_rp = None if own_ra is None or not n else own_ra + dp_for(percent_h(int(score * 100), n))
    conditions += _rating(norm, rules, n, score, ra, raised, rp)
    titled = sum(g.opponent.title.upper() in rules.titled for g in games)
    title = sum(g.opponent.title.upper() in norm.or_higher for g in games)
    conditions += _titles(event, norm, n, titled, title)
    feds, own, top, fed_conditions, exemption = _federations(event, player, games)
    conditions += fed_conditions
    conditions += [*event.admin, *extra]
    decided = [c.ok for c in conditions if c.checked]
    achieved = all(decided) and (remaining == 0 or event.t.info.system is not System.ROUND_ROBIN)
    application, estimate = 0, None
    if achieved:
        needed = required_score(ra or 0, n, norm, rules)
        over = floor(score - needed) if needed is not None else 0
        application = min(rules.most_games, n + max(over, 0))  # 1.4.1d: a full point a game
        result = NormResult.ACHIEVED
    elif remaining and _reachable(event, norm, conditions, [*left_out, *ignored], _Tally(
            n, score, ra, titled, title, feds, own, top), remaining):
        result = NormResult.POSSIBLE
        estimate = None if ra is None else _points_needed(ra, n, score, remaining, norm, rules)
    elif False in decided:  # and, with rounds still to play, out of reach
        result = NormResult.MISSED
    else:
        result = NormResult.NOT_DECIDABLE
    reasons = tuple(c.words for c in conditions if c.ok is not True and c.checked)
    if remaining and result is not NormResult.ACHIEVED:
        reasons += (_rounds_left(estimate, remaining, ra),)
    return NormCheck(
        start_no=player.start_no, name=player.name, norm=norm.title, result=result,
        rounds=f"1-{last}" if last else "", games=n, application_games=application,
        score=score, ra=ra, ra_floor_raised=raised, performance=rp, titled_opponents=titled,
        title_opponents=title, federations=feds, own_federation=own,
        exemption=exemption if achieved else "", reasons=reasons, conditions=tuple(conditions),
        points_needed=estimate, dropped=tuple(sorted(dropped)), true_performance=true_rp)


def _rounds_left(estimate: Decimal | None, remaining: int, ra: int | None, *,
                 paired: bool = False) -> str:
    """The rounds still to play, in words, with the estimate of the points they need (against
    the opponent *paired* in the round in progress, then others of the average *ra*)."""
    rounds = f"{remaining} round{'s' if remaining > 1 else ''} still to play"
    if estimate is None:
        return rounds
    points = (f"{points_words(estimate)} point{'' if estimate <= 1 else 's'} from" if estimate
              else "any results in")
    against = (f"this round's opponent as paired, then opponents averaging {ra}" if paired
               else f"against opponents averaging {ra}")
    return f"estimate: {points} the {rounds}, {against}"


def _games(event: _Event, left_out: Sequence[RoundResult], n: int, last: int,
           ignored: Sequence[RoundResult] = ()) -> Condition:
    """1.4.1–1.4.2: the games counted (*left_out*: the rounds up to *last* that count no game;
    *ignored*: won games the player leaves out, 1.4.1f)."""
    rules, least = event.rules, _least(event)
    dropped = [f"round {r.round}: {left_out_words(r)}" for r in left_out
               if r.status not in (Status.ABSENT, Status.UNKNOWN)]
    dropped += [f"round {r.round}: a won game left out (1.4.1f)" for r in ignored]
    note = f"; not counted: {', '.join(dropped)}" if dropped else ""
    over = (f"; an event of more than {rules.most_games} rounds counts as {rules.most_games} "
            "games" if n > rules.most_games else "")
    have, need = f"{n} games", f"at least {least}"
    if n >= least:
        return Condition(name="games", article="1.4.1", ok=True, have=have, need=need,
                         words=f"games counted: {n} (at least {least}){note}{over}")
    if event.planned == last and n == least - 1 and _one_excused(event, [*left_out, *ignored]):
        return Condition(name="games", article="1.4.1", ok=True, have=have, need=need,
                         words=f"{n} games in a {last}-round event: the missing game is a "
                               f"{left_out_words(left_out[0])}, so {n} suffice "
                               "(usable once per title application)")
    return Condition(name="games", article="1.4.1", ok=False, have=have, need=need,
                     words=f"games counted: {n} (at least {least} needed){note}")


def _one_excused(event: _Event, left_out: Sequence[RoundResult]) -> bool:
    """1.4.1: a 9-round event whose only game not counted is a forfeit win or a
    pairing-allocated bye (then 8 games suffice)."""
    return (event.planned == event.rules.short_event_rounds and len(left_out) == 1
            and (left_out[0].status is Status.FORFEIT_WIN
                 or (left_out[0].status is Status.BYE and not left_out[0].requested)))


def _least(event: _Event) -> int:
    """1.4.1: the games a norm needs (fewer in a World or Continental team championship)."""
    if event.event_class is EventClass.TEAM_CHAMPIONSHIP:
        return event.rules.team_min_games
    return event.rules.min_games


def left_out_words(r: RoundResult) -> str:
    """Why a round counts no game for a norm, in words (a game played: its opponent is one
    :func:`excluded_opponents` leaves out)."""
    if r.status is Status.BYE:
        return "requested bye" if r.requested else "pairing-allocated bye"
    if r.status is Status.PLAYED:
        return "an unrated opponent who scored 0 against rated players (1.4.2)"
    return {Status.FORFEIT_WIN: "forfeit win", Status.FORFEIT_LOSS: "forfeit loss",
            Status.UNPLAYED: "game of less than one move", Status.HALF_BYE: "half-point bye",
            Status.PENDING: "result not yet known",
            Status.UNKNOWN: "not shown by the source"}.get(r.status, "no game")


def _ra(games: Sequence[_Game], norm: TitleNorm, rules: NormRules, *, raise_lowest: bool = True
        ) -> tuple[int | None, bool]:
    """1.4.6–1.4.7 over *games* (:func:`norm_average`); None when a rating is unknown or there
    are no games."""
    if not games or not all(g.opponent.rating_known for g in games):
        return None, False
    return norm_average([g.opponent.rating for g in games], norm, rules,
                        raise_lowest=raise_lowest)


def norm_average(ratings: Sequence[int | None], norm: TitleNorm, rules: NormRules, *,
                 raise_lowest: bool = True) -> tuple[int, bool]:
    """1.4.6–1.4.7: the opponents' average (at least one), unrated (None) as 1400, the lowest
    one alone raised to the norm's floor (unless not *raise_lowest*), rounded (.5 up); and
    whether it was raised."""
    values = sorted(r if r is not None else rules.unrated for r in ratings)
    raised = raise_lowest and values[0] < norm.floor
    if raised:
        values[0] = norm.floor
    return fide.average_rating(values), raised


def _rating(norm: TitleNorm, rules: NormRules, n: int, score: Decimal, ra: int | None,
            raised: bool, rp: int | None) -> list[Condition]:
    """1.4.8–1.4.9: Ra, Rp and the 35 % score (which needs no rating)."""
    share = [] if not n else [Condition(
        name="score", article="1.4.8", ok=Fraction(score) / n >= rules.min_score,
        have=f"{score}/{n}", need=f"{rules.min_score * 100} %",
        words=f"score: {points_words(score)} from {n} games (at least {rules.min_score * 100} %)")]
    if ra is None or rp is None:
        why = "no games counted" if not n else "the source does not show every opponent's rating"
        ok = False if not n else None
        return [Condition(name="Ra", article="1.4.6", ok=ok, words=f"no average rating: {why}"),
                Condition(name="performance", article="1.4.8", ok=ok,
                          words=f"no performance: {why}"), *share]
    floor_words = f", the lowest opponent raised to {norm.floor} (1.4.7)" if raised else ""
    percent = percent_h(int(score * 100), n)
    dp = dp_for(percent)
    return [
        Condition(name="Ra", article="1.4.8", ok=ra >= norm.min_ra, have=str(ra),
                  need=str(norm.min_ra), words=f"average rating of the opponents {ra} "
                  f"(at least {norm.min_ra}){floor_words}"),
        Condition(name="performance", article="1.4.8", ok=rp >= norm.min_rp, have=str(rp),
                  need=str(norm.min_rp), words=f"performance {rp} (at least {norm.min_rp}): "
                  f"Ra {ra} {'−' if dp < 0 else '+'} {abs(dp)} for {percent} % (1.4.9)"),
        *share,
    ]


def points_words(score: Decimal) -> str:
    """'5½', '7', '½': a score as the pages print it."""
    whole, half = divmod(score, 1)
    return (f"{int(whole)}" if whole or not half else "") + ("½" if half else "")



def _titles(event: _Event, norm: TitleNorm, n: int, titled: int, title: int
            ) -> list[Condition]:
    """1.4.5: titleholders, and holders of the title sought or higher."""
    rules = event.rules
    need_titled = ceil(rules.titled_share * n)
    need_title = max(rules.title_min, ceil(rules.title_share * n))
    sought = "/".join(sorted(norm.or_higher, key=["GM", "IM", "WGM", "WIM"].index))
    if not event.titles_shown:
        why = "not decidable: the source shows no player's title"
        return [Condition(name="titled opponents", article="1.4.5", ok=None, words=why),
                Condition(name="title opponents", article="1.4.5", ok=None, words=why)]
    return [
        Condition(name="titled opponents", article="1.4.5", ok=titled >= need_titled,
                  have=str(titled), need=str(need_titled),
                  words=f"titled opponents: {titled} (at least {need_titled}; GM, IM, WGM, "
                        "WIM, FM or WFM)"),
        Condition(name="title opponents", article="1.4.5", ok=title >= need_title,
                  have=str(title), need=str(need_title),
                  words=f"opponents holding {sought}: {title} (at least {need_title})"),
    ]


def _federations(event: _Event, player: Player, games: Sequence[_Game]
                 ) -> tuple[int, int, int, list[Condition], str]:
    """1.4.3–1.4.4: federations, and the exemptions; the FIDE flag is no federation.  Returns
    the other federations, the opponents from the player's own, the most from any one, the
    conditions and the exemption used."""
    rules, n = event.rules, len(games)
    own = player.federation
    feds = [g.opponent.federation for g in games]
    real = [f for f in feds if f != rules.no_federation]
    counts = Counter(real)
    others = len({f for f in real if f != own})
    own_count = counts[own] if own != rules.no_federation else 0
    most_own, most_one = floor(rules.own_share * n), floor(rules.one_share * n)
    if not own or "" in feds:
        who = "the player's" if not own else "every opponent's"
        words = f"not decidable: the source does not show {who} federation"
        return others, own_count, 0, [Condition(name="federations", article="1.4.3", ok=None,
                                                words=words)], ""
    top = counts.most_common(1)[0] if counts else ("", 0)
    found = [
        Condition(name="federations", article="1.4.3", ok=others >= rules.other_federations,
                  have=str(others), need=str(rules.other_federations),
                  words=f"federations other than {own}: {others} "
                        f"(at least {rules.other_federations})"),
        Condition(name="own federation", article="1.4.3", ok=own_count <= most_own,
                  have=str(own_count), need=str(most_own),
                  words=f"opponents from {own}: {own_count} (at most {most_own})"),
        Condition(name="one federation", article="1.4.3", ok=top[1] <= most_one,
                  have=str(top[1]), need=str(most_one),
                  words=f"opponents from {top[0] or 'one federation'}: {top[1]} "
                        f"(at most {most_one} from any one)"),
    ]
    if all(c.ok for c in found):
        return others, own_count, top[1], found, ""
    exempt, why = event.exempt
    if exempt is False:
        return others, own_count, top[1], found, ""
    out = [c if c.ok else Condition(
        name=c.name, article=c.article, ok=exempt, have=c.have, need=c.need,
        words=(f"{c.words} — exempt: {why}; one norm of a title application must meet it "
               "(1.4.3e)" if exempt else f"{c.words} — not decidable whether exempt: {why}"))
        for c in found]
    return others, own_count, top[1], out, why if exempt else ""


def required_score(ra: int, n: int, norm: TitleNorm, rules: NormRules) -> Decimal | None:
    """The least score (in half points) that makes the performance and the 35 % over *n*
    games against *ra* (1.4.8); None when no score does."""
    for halves in range(2 * n + 1):
        score = Decimal(halves) / 2
        if (ra + dp_for(percent_h(halves * 50, n)) >= norm.min_rp
                and Fraction(score) >= rules.min_score * n):
            return score
    return None


def _points_needed(ra: int, n: int, score: Decimal, remaining: int, norm: TitleNorm,
                   rules: NormRules) -> Decimal | None:
    """The least points from the *remaining* rounds that make the performance and the 35 %
    over all the games, against opponents of the current *ra* (an estimate); None when even
    winning them all would not."""
    needed = required_score(ra, n + remaining, norm, rules)
    if needed is None or needed - score > remaining:
        return None
    return Decimal(max(int((needed - score) * 2), 0)) / 2  # '0', '0.5', '1': no trailing '.0'


@dataclass(frozen=True, slots=True)
class _Tally:
    """What the games counted so far add up to."""

    games: int
    score: Decimal
    ra: int | None
    titled: int
    title: int
    federations: int
    own: int
    top: int
    """The most opponents from any one federation."""


def _reachable(event: _Event, norm: TitleNorm, conditions: Sequence[Condition],
               left_out: Sequence[RoundResult], so_far: _Tally, remaining: int) -> bool:
    """Whether the rounds still to play could make every condition not met yet: each of them
    won against a holder of the title sought from a federation not met yet, rated at the
    current Ra (an estimate).  What the event is (1.1) no round can change."""
    rules, games = event.rules, so_far.games + remaining
    failed = {c.name for c in conditions if c.ok is False and c.checked}
    if failed & {c.name for c in event.admin}:
        return False
    least = _least(event) - (1 if _one_excused(event, left_out) else 0)
    ra = so_far.ra
    reach = {
        "games": games >= least,
        "performance": ra is None or _points_needed(ra, so_far.games, so_far.score, remaining,
                                                    norm, rules) is not None,
        "score": Fraction(so_far.score + remaining) >= rules.min_score * games,
        "titled opponents": so_far.titled + remaining >= ceil(rules.titled_share * games),
        "title opponents": so_far.title + remaining >= max(rules.title_min,
                                                           ceil(rules.title_share * games)),
        "federations": so_far.federations + remaining >= rules.other_federations,
        "own federation": so_far.own <= floor(rules.own_share * games),
        "one federation": so_far.top <= floor(rules.one_share * games),
    }
    return all(reach.get(name, True) for name in failed)
