"""The title norms as people read them: the words of each result and condition, the index's
marks and summary, the live round's need, and the rows of a norm certificate.

Pure: the checks come made in the report (:func:`rating.norms.check_event_norms`, once, by
:func:`reports.report.build_report`); nothing here decides a norm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from importer.model import Status
from rating.norms import Condition, NormCheck, NormResult, excluded_opponents, left_out_words
from rating.systems.fide_rules import norm_rules_for
from reports.render import fmt
from reports.render.columns import norm_listed, not_checked
from reports.render.summary import live_round
from reports.render.view import Report

__all__ = ["Certificate", "Mark", "Opponent", "certificate", "checks_of", "event_class_words",
           "floor_words", "mark", "needs_words", "norm_badge", "norm_count", "norm_summary",
           "regulations", "shown_norms", "unchecked_by_all", "verdict"]

_RESULT_WORDS = {
    NormResult.ACHIEVED: "achieved",
    NormResult.POSSIBLE: "still possible",
    NormResult.MISSED: "missed",
    NormResult.NOT_DECIDABLE: "not decidable from the source",
}


def verdict(check: NormCheck) -> str:
    """'achieved', 'still possible', 'missed', 'not decidable from the source'."""
    return _RESULT_WORDS[check.result]


def norm_badge(check: NormCheck) -> str:
    """The index's short mark: 'IM norm', 'GM norm possible', 'IM norm?' (not decidable)."""
    return {NormResult.ACHIEVED: f"{check.norm.value} norm",
            NormResult.POSSIBLE: f"{check.norm.value} norm possible",
            NormResult.NOT_DECIDABLE: f"{check.norm.value} norm?"}.get(check.result, "")


@dataclass(frozen=True, slots=True)
class Mark:
    """A condition's state as a symbol and the same in words (never the symbol alone)."""

    symbol: str
    words: str
    cls: str


def mark(condition: Condition) -> Mark:
    """✔ met, ✖ not met, ? unknown, – not checked."""
    if not condition.checked:
        return Mark("–", "not checked", "unchecked")
    if condition.ok is None:
        return Mark("?", "unknown", "unknown")
    return Mark("✔", "met", "met") if condition.ok else Mark("✖", "not met", "unmet")


def unchecked_by_all(checks: Sequence[NormCheck]) -> list[str]:
    """The conditions not checked for every one of *checks* (said once for all), in words."""
    if not checks:
        return []
    return [w for w in not_checked(checks[0]) if all(w in not_checked(c) for c in checks[1:])]


_FIRST = (NormResult.ACHIEVED, NormResult.POSSIBLE, NormResult.NOT_DECIDABLE, NormResult.MISSED)
"""A player's norms in this order: what they made first, what they missed last."""


def checks_of(report: Report, start_no: int) -> list[NormCheck]:
    """Every norm check of one player (each title sought), the achieved first."""
    return sorted((c for c in report.norms if c.start_no == start_no),
                  key=lambda c: _FIRST.index(c.result))


def shown_norms(report: Report) -> list[NormCheck]:
    """The checks norms.csv lists: achieved, possible or not decidable."""
    return [c for c in report.norms if norm_listed(c)]


def needs_words(report: Report, check: NormCheck) -> str:
    """'a win in round 9 makes the IM norm' while a round is in progress ('' otherwise)."""
    if not check.needs:
        return ""
    live = live_round(report.tournament)
    if live is None:
        return ""
    verb = "keeps" if check.result is NormResult.ACHIEVED else "makes"
    what = {"win": "a win", "draw": "a draw or a win", "any": "any result"}.get(check.needs,
                                                                                check.needs)
    return f"{what} in round {live} {verb} the {check.norm.value} norm"


_GROUPS = ((NormResult.ACHIEVED, "achieved", "achieved"),
           (NormResult.POSSIBLE, "still possible", "possible"),
           (NormResult.NOT_DECIDABLE, "not decidable from the source", "not decidable"))
"""The results the index lists, in words and in short."""


def norm_summary(report: Report) -> list[tuple[str, list[NormCheck]]]:
    """The index's lines: 'Title norms achieved' with its checks, then those still possible
    and those the source cannot decide (only the groups that have any)."""
    groups = [(f"Title norms {words}", [c for c in report.norms if c.result is result])
              for result, words, _ in _GROUPS]
    return [(words, found) for words, found in groups if found]


def norm_count(report: Report) -> str:
    """The index's short link at the top: 'Title norms: 1 achieved, 3 possible'."""
    counts = [(sum(c.result is result for c in report.norms), short)
              for result, _, short in _GROUPS]
    said = ", ".join(f"{n} {words}" for n, words in counts if n)
    return f"Title norms: {said}" if said else ""


def regulations(report: Report) -> str:
    """The Title Regulations the check applied: 'FIDE Title Regulations 2024'."""
    return norm_rules_for(report.rating.on).name


def floor_words(report: Report, check: NormCheck) -> str:
    """'the lowest opponent's rating raised to 2050 (1.4.7)' when it was ('' otherwise)."""
    if not check.ra_floor_raised:
        return ""
    floor = norm_rules_for(report.rating.on).norm(check.norm).floor
    return f"the lowest opponent's rating raised to {floor} (1.4.7)"


def event_class_words(report: Report) -> str:
    """The event class given, in words ('' when none was given)."""
    return report.event_class.words if report.event_class is not None else ""


@dataclass(frozen=True, slots=True)
class Opponent:
    """One round of a norm certificate: the opponent as the start list has them, and the
    result, or why the round counts no game."""

    round: int
    name: str
    title: str
    federation: str
    rating: str
    """The start list's rating ('unrated: 1400 counted' for none)."""
    result: str
    counted: bool


@dataclass(frozen=True, slots=True)
class Certificate:
    """What a norm certificate shows of the event, the player and the games."""

    check: NormCheck
    fide_id: str
    federation: str
    opponents: tuple[Opponent, ...]


def certificate(report: Report, check: NormCheck) -> Certificate:
    """A norm certificate's rows: every round the check counts (those without a game say
    why: they count no game)."""
    t = report.tournament
    rules = norm_rules_for(report.rating.on)
    last = int(check.rounds.rsplit("-", 1)[-1]) if check.rounds else 0
    excluded = excluded_opponents(t)
    rows = []
    for r in t.results_of(check.start_no):
        if r.round > last:
            continue
        opp = t.player(r.opponent_no) if r.opponent_no is not None else None
        played = r.status is Status.PLAYED and opp is not None and opp.start_no not in excluded
        if opp is None or not opp.rating_known:
            rating = "" if opp is None else "not shown"
        else:
            rating = (str(opp.rating) if opp.rating is not None
                      else f"unrated: {rules.unrated} counted")
        result = (fmt.points(r.points if r.points is not None else Decimal(0)) if played
                  else f"not counted: {left_out_words(r)}")
        rows.append(Opponent(r.round, opp.name if opp else "", opp.title if opp else "",
                             opp.federation if opp else "", rating, result, played))
    player = report.player(check.start_no)
    return Certificate(check, player.fide_id, player.federation, tuple(rows))
