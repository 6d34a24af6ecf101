"""FIDE's time-control rules, each once with its article: which games of a standard event are
standard-rated, and whether the time control allows a title norm.

Pure: a :class:`~importer.model.Tournament` (its time-control label read by the importer's one
parser, :func:`importer.parsing.time_control.parse_time_control`) and the date whose rules apply in,
frozen records out; every value from :mod:`rating.systems.fide_rules`.

* **Rating Regulations 1.1** (:class:`rating.systems.fide_rules.StandardTimeRules`, by the event's start):
  each player must have a minimum time "assuming the game lasts 60 moves" (the increment of 60
  moves counted in, as FIDE's own examples do).  From 1 January 2022 (unchanged on 1 March
  2024): 120 minutes where a player in the game is rated 2400 or more, 90 where one is rated
  1800 or more, 60 where both are below 1800.  From 1 July 2017 to 31 December 2021: the same
  per game at 2200 and 1600.  Before: per tournament, its highest-rated player deciding (2200,
  1600).  A game below its minimum is not standard-rated.
* **Rating Regulations 1.2** (from 1 January 2022): a first control that names a number of
  moves names at least 30.
* **FIDE's fast-standard controls** (:class:`rating.systems.fide_rules.FastStandardRules`): the pilot of
  2025 (45 min + 30 s, standard-rated, no title norms) and the FIDE Council's decision for
  2026 (45+30 or longer, standard-rated and counting for norms in events FIDE's Qualification
  Commission approved).  A source cannot show either; a standard event at such a control is
  rated as FIDE rates such events, with a note saying on which terms.
* **Title Regulations 1.1**: a norm needs at least 2 hours for 60 moves
  (:attr:`rating.systems.fide_rules.NormRules.min_minutes`), or the fast-standard terms above.

The rapid and blitz definitions (RB24 §1) stay the importer's
(:func:`importer.parsing.time_control.classify_minutes`): they say on which list an event is rated.
An unreadable label changes nothing: no game is left out and the norm condition stays "not
checked".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from importer.model import RatingList, Status, Tournament
from importer.parsing.time_control import GAME_MOVES, TimeControl, parse_time_control
from rating.systems.fide_rules import (
    FastStandardRules,
    NormRules,
    StandardTimeRules,
    fast_standard_for,
    standard_time_rules_for,
)

__all__ = ["QC_APPROVAL", "NormTime", "StandardTime", "is_fast_standard", "norm_time_control",
           "standard_time"]

QC_APPROVAL = "approval by FIDE's Qualification Commission"
"""What a fast-standard event of 2026 on needs for a title norm (a condition's ``need``)."""

_RATED_ROWS = (Status.PLAYED, Status.PENDING)
"""The rows of games a time control can leave out: played, and paired but not yet decided."""


def _minutes(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def is_fast_standard(tc: TimeControl, fast: FastStandardRules) -> bool:
    """Whether *tc* is one of FIDE's fast-standard controls on *fast*'s terms: one period of
    45 minutes and 30 seconds a move (the pilot: exactly; 2026: that or longer)."""
    if tc.second is not None or tc.moves is not None:
        return False
    if fast.exact:
        return tc.minutes == fast.minutes and tc.increment == fast.increment
    return tc.minutes >= fast.minutes and tc.increment >= fast.increment


@dataclass(frozen=True, slots=True, kw_only=True)
class StandardTime:
    """What the time control makes of a standard event's games (Rating Regulations 1.1–1.2)."""

    control: TimeControl | None
    """The label read (None: no label, or one that does not say plainly)."""
    rules: StandardTimeRules
    excluded: frozenset[tuple[int, int]] = frozenset()
    """(start number, round) of each row of a game below its minimum, both players'."""
    left_out: int = 0
    """Games (played, or paired and not yet decided) below their minimum."""
    games: int = 0
    """Games played, or paired and not yet decided."""
    reason: str = ""
    """Why such a game is not rated, for its round line."""
    note: str = ""
    """The tournament's note: how many games are left out and why, or on which fast-standard
    terms games below the minimum are rated ('' when there is nothing to say)."""
    refusal: str = ""
    """When every game is below its minimum: the event is not standard-rated, in one
    line ('' otherwise)."""


def standard_time(t: Tournament, on: date) -> StandardTime:
    """The games of *t* its time control leaves out of the standard rating, by the rules in
    force on *on* (a rapid or blitz event, or an unreadable label: none)."""
    rules = standard_time_rules_for(on)
    if t.info.rating_list not in (None, RatingList.STANDARD):
        return StandardTime(control=None, rules=rules)
    tc = parse_time_control(t.info.time_control)
    minutes = tc.minutes_for(GAME_MOVES) if tc is not None else None
    if tc is None or minutes is None:
        return StandardTime(control=tc, rules=rules)
    fast = fast_standard_for(on)
    fast_ok = fast is not None and is_fast_standard(tc, fast)
    first = rules.first_control_moves
    short_first = first is not None and tc.moves is not None and tc.moves < first
    rating = {p.start_no: p.rating for p in t.players}
    everyone = tuple(rating.values())
    excluded: set[tuple[int, int]] = set()
    needs: dict[tuple[int, int, int], int] = {}  # each game (round, players): its minimum
    below: set[tuple[int, int, int]] = set()
    for r in t.results:
        if r.status not in _RATED_ROWS or r.opponent_no is None:
            continue
        need = rules.minimum((rating.get(r.start_no), rating.get(r.opponent_no))
                             if rules.per_game else everyone)
        if short_first or (minutes < need and not fast_ok):
            excluded.add((r.start_no, r.round))
        game = (r.round, min(r.start_no, r.opponent_no), max(r.start_no, r.opponent_no))
        needs[game] = need
        if minutes < need:
            below.add(game)
    words = tc.words
    article = f"Rating Regulations {rules.article}"
    if short_first:
        why = (f"its first control of {tc.moves} moves is fewer than the {first} FIDE's standard "
               "games need (Rating Regulations 1.2)")
        return StandardTime(control=tc, rules=rules, excluded=frozenset(excluded),
                            left_out=len(needs), games=len(needs),
                            reason="first control of too few moves (Rating Regulations 1.2)",
                            note=f"no game is standard-rated: the time control {words}: {why}"
                            if needs else "",
                            refusal=f"{t.info.name or 'the event'}: the time control {words}: "
                                    f"{why}: not standard-rated" if needs else "")
    if not below:
        return StandardTime(control=tc, rules=rules, games=len(needs))
    least = min(needs[g] for g in below)  # the lowest band the control fails
    band = rules.band_words(least)
    for_60 = f"{_minutes(minutes)} minutes for {GAME_MOVES} moves"
    if fast_ok and fast is not None:
        terms = ("when it is one of the pilot's events" if not fast.norms
                 else "when its Qualification Commission approved it")
        return StandardTime(control=tc, rules=rules, games=len(needs), note=(
            f"the time control {words} ({for_60}) is below FIDE's minimum for standard games "
            f"{band} ({least} min for {GAME_MOVES} moves, {article}): rated as standard on the "
            f"terms of {fast.name} ({fast.source}); FIDE rates an event so only {terms}"))
    reason = f"time control below FIDE's standard minimum ({article})"
    if len(below) == len(needs):
        least_all = min(needs.values())
        line = (f"the time control {words} is below FIDE's minimum for standard games "
                f"({rules.least} min for {GAME_MOVES} moves, {article})" if minutes < rules.least
                else f"the time control {words} ({for_60}) is below FIDE's minimum for standard "
                     f"games {rules.band_words(least_all)} ({least_all} min for {GAME_MOVES} "
                     f"moves, {article})")
        return StandardTime(control=tc, rules=rules, excluded=frozenset(excluded),
                            left_out=len(below), games=len(needs), reason=reason,
                            note=f"no game is standard-rated: {line}",
                            refusal=f"{t.info.name or 'the event'}: {line}: not standard-rated")
    n = len(below)
    return StandardTime(control=tc, rules=rules, excluded=frozenset(excluded), left_out=n,
                        games=len(needs), reason=reason, note=(
                            f"{n} of {len(needs)} games left out of the rating: the time control "
                            f"{words} ({for_60}) is below FIDE's minimum for standard games "
                            f"{band} ({least} min for {GAME_MOVES} moves, {article})"))


@dataclass(frozen=True, slots=True, kw_only=True)
class NormTime:
    """The time-control condition of a title norm, in words."""

    ok: bool | None
    checked: bool
    words: str
    have: str = ""
    need: str = ""


def norm_time_control(label: str, day: date | None, rules: NormRules, *,
                      qc_approved: bool = False) -> NormTime:
    """Title Regulations 1.1: whether the time control *label* allows a norm in an event
    starting on *day* (*qc_approved*: FIDE's Qualification Commission approved the event, as
    the user says; no source shows it)."""
    least = rules.min_minutes
    tc = parse_time_control(label)
    minutes = tc.minutes_for(GAME_MOVES) if tc is not None else None
    if tc is None or minutes is None:
        shown = f" (the source shows {label})" if label else ""
        hours = f"{least // 60} hours" if least % 60 == 0 else f"{least} minutes"
        return NormTime(ok=None, checked=False,
                        words=f"not checked: at least {hours} for {GAME_MOVES} moves{shown}")
    have, need = f"{_minutes(minutes)} min", f"{least} min"
    if minutes >= least:
        return NormTime(ok=True, checked=True, have=have, need=need,
                        words=f"time control {tc.words}: {_minutes(minutes)} minutes for "
                              f"{GAME_MOVES} moves (at least {least})")
    fast = fast_standard_for(day) if day is not None else None
    if fast is not None and is_fast_standard(tc, fast):
        if not fast.norms:
            return NormTime(ok=False, checked=True, have=tc.words, need=need,
                            words=f"time control {tc.words}: {fast.name} awarded no title norms "
                                  f"({fast.source})")
        where = (f"in an event FIDE's Qualification Commission approved ({fast.name}, "
                 f"{fast.source})")
        if qc_approved:
            return NormTime(ok=True, checked=True, have="approved", need=QC_APPROVAL,
                            words=f"time control {tc.words}: counts for title norms {where}; "
                                  "approved, as given")
        return NormTime(ok=False, checked=True, have="not shown as approved", need=QC_APPROVAL,
                        words=f"time control {tc.words}: counts for title norms only {where}; "
                              "the event is not shown as approved")
    return NormTime(ok=False, checked=True, have=have, need=need,
                    words=f"time control {tc.words}: {_minutes(minutes)} minutes for "
                          f"{GAME_MOVES} moves (at least {least} needed)")
