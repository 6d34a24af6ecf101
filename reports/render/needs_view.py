""""What do I need?" as people read it: one player's goals for the rounds still to play, the
thresholds their live rating crossed, the games a norm counts, and before round 1 the norms
they can make at all.

Pure: the answers come made in the report (:mod:`rating.needs`, through
:func:`reports.report.build_report`), each with its words; nothing here counts or decides.
A block says only what it has to say: a finished event has no rounds still to play, so its
players' blocks hold the thresholds crossed and the norms' counting alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from rating.long_events import ARTICLE, list_slices
from rating.needs import Crossing, GoalKind, Need, NormProspect, PlayerNeeds, Verdict
from rating.norms import NormCheck, NormResult, rounds_words
from reports.render import fmt
from reports.render.view import Report

__all__ = ["Counted", "CrossingLine", "Goal", "ListsView", "NeedsView", "lists_lines",
           "lists_view", "needs_lines", "needs_view"]


@dataclass(frozen=True, slots=True)
class Goal:
    """One goal's answer, with where it stands in words (never a colour alone)."""

    words: str
    """'3 from 5 keeps you above 2200 (…)' as a sentence."""
    verdict: str
    """'in reach', 'certain', 'out of reach', 'not decidable', 'possible', 'not possible'."""
    cls: str
    """The class the pages colour it by ('in-reach', 'certain', 'out-of-reach', …)."""
    estimate: bool = False
    """An assumption decides it (a round not paired yet, or too many ways to try them all)."""
    need: Need | None = None
    """The engine's record of a goal (None for a prospect)."""
    prospect: NormProspect | None = None
    """The engine's record of a norm prospect (None for a goal)."""


@dataclass(frozen=True, slots=True)
class CrossingLine:
    """A threshold crossed, in words, with its record."""

    words: str
    crossing: Crossing


@dataclass(frozen=True, slots=True)
class Counted:
    """A norm as FIDE counts it: the games counted and both performances, each labelled."""

    norm: str
    """'IM'."""
    verdict: str
    """'achieved'."""
    games: str
    """'rounds 1–11, leaving out the win in round 3 (1.4.1f); made after round 9, …'."""
    performance: int | None
    """The regulations' performance (the lowest opponent raised to the floor)."""
    performance_rule: str
    """How the regulations count it, as a short rule label."""
    true_performance: int | None
    """The same with the opponents' own ratings, none raised: for information only."""
    words: str
    """Both performances in one line (the terminal's and the JSON's)."""
    check: NormCheck


@dataclass(frozen=True, slots=True)
class NeedsView:
    """One player's "What do I need?" block."""

    start_no: int
    rounds_left: int
    to_play: tuple[str, ...]
    """'round 8: Adams, Michael (2595)', 'round 9: an opponent rated 2410 (assumed)'."""
    assumed: str
    """How an opponent not paired yet is assumed ('' when every game left is paired)."""
    goals: tuple[Goal, ...]
    crossings: tuple[CrossingLine, ...]
    counted: tuple[Counted, ...]
    prospects: tuple[Goal, ...]
    notes: tuple[str, ...]
    target: int | None
    player: PlayerNeeds | None = None
    """The engine's record of the player's goals (None: no rounds still to play shown)."""

    @property
    def empty(self) -> bool:
        """Nothing to say."""
        return not (self.goals or self.crossings or self.counted or self.prospects)


_GOAL_CLASS = {Verdict.CERTAIN: "certain", Verdict.IN_REACH: "in-reach",
               Verdict.OUT_OF_REACH: "out-of-reach", Verdict.NOT_DECIDABLE: "not-decidable"}
_COUNTED = {NormResult.ACHIEVED: "achieved"}
"""The norms whose counting is shown: those made (a norm still possible is a goal above)."""


def _player_needs(report: Report, start_no: int) -> PlayerNeeds | None:
    return next((n for n in report.needs if n.start_no == start_no), None)


def _counted(check: NormCheck) -> Counted:
    rule = ("Title Regulations 1.4.8–1.4.9, the lowest opponent raised to the floor (1.4.6b)"
            if check.ra_floor_raised else "Title Regulations 1.4.8–1.4.9")
    return Counted(norm=check.norm.value, verdict=_COUNTED[check.result],
                   games=check.window_words.replace("-", "–"),
                   performance=check.performance, performance_rule=rule,
                   true_performance=check.true_performance,
                   words=fmt.sentence(check.performance_words), check=check)


def needs_view(report: Report, start_no: int) -> NeedsView | None:
    """The player's block (None when it would say nothing)."""
    pn = _player_needs(report, start_no)
    prospects = tuple(
        Goal(fmt.sentence(p.words),
             {True: "possible", False: "not possible", None: "not decidable"}[p.possible],
             {True: "in-reach", False: "out-of-reach", None: "not-decidable"}[p.possible],
             estimate=not p.exact, prospect=p)
        for p in report.prospects if p.start_no == start_no)
    goals: tuple[Goal, ...] = ()
    to_play: tuple[str, ...] = ()
    assumed = ""
    if pn is not None and pn.games:  # rounds still to play
        goals = tuple(Goal(fmt.sentence(n.words), n.verdict.value, _GOAL_CLASS[n.verdict],
                           n.estimate, need=n)
                      for n in pn.needs
                      if not (prospects and n.kind is GoalKind.NORM))  # the prospects say it
        unpaired = [g for g in pn.games if g.assumed]
        to_play = tuple(f"round {g.round}: {g.words}" for g in pn.games if not g.assumed)
        if unpaired:
            to_play += (f"{rounds_words([g.round for g in unpaired])}: not paired yet",)
        if pn.assumed_rating is not None and unpaired:
            assumed = f"An opponent not paired yet is assumed to be rated {pn.assumed_rating}"
    crossings = tuple(CrossingLine(fmt.sentence(c.words), c) for c in report.crossings
                      if c.start_no == start_no)
    counted = tuple(_counted(c) for c in report.norms
                    if c.start_no == start_no and c.result in _COUNTED and c.games)
    view = NeedsView(start_no=start_no, rounds_left=pn.rounds_left if pn is not None else 0,
                     to_play=to_play, assumed=assumed, goals=goals, crossings=crossings,
                     counted=counted, prospects=prospects,
                     notes=tuple(fmt.sentence(n) for n in pn.notes) if pn is not None and goals
                     else (), target=report.target, player=pn if goals else None)
    return None if view.empty else view


def needs_lines(view: NeedsView) -> list[str]:
    """The block as terminal lines: a heading, then each answer on a line of its own."""
    lines = ["", "What do I need?"]
    if view.goals:
        lines += [f"  {g.words}" for g in view.goals]
        lines.append(f"  Still to play: {'; '.join(view.to_play)}")
        if view.assumed:
            lines.append(f"  {view.assumed}")
        lines += [f"  {n}" for n in view.notes]
    if view.prospects:
        lines.append("Title norms in this event:")
        lines += [f"  {g.words}" for g in view.prospects]
    if view.crossings:
        lines.append("Thresholds crossed:")
        lines += [f"  {c.words}" for c in view.crossings]
    for c in view.counted:
        lines += [f"{c.norm} norm ({c.verdict}), as FIDE counts it:", f"  Games counted: {c.games}",
                  f"  {c.words}"]
    return lines


@dataclass(frozen=True, slots=True)
class ListsView:
    """A long event's games by the rating list in force when they were played."""

    intro: str
    lines: tuple[str, ...]
    """'The March 2026 list: rounds 1–5'."""
    months: tuple[tuple[str | None, tuple[int, ...]], ...]
    """('2026-03', (1, 2, 3, 4, 5)), … (None: rounds without a date), for the JSON."""


def lists_view(report: Report, start_no: int) -> ListsView | None:
    """Which of the player's games fall in which list (:func:`rating.long_events.list_slices`);
    None for an event of one list."""
    slices = list_slices(report.tournament, start_no)
    if not slices:
        return None
    return ListsView(
        intro=(f"An event of more than 30 days: each game counts the ratings of the list in "
               f"force when it was played ({ARTICLE})"),
        lines=tuple(fmt.sentence(s.words) for s in slices),
        months=tuple((f"{s.month:%Y-%m}" if s.month is not None else None, s.rounds)
                     for s in slices))


def lists_lines(view: ListsView) -> list[str]:
    """The games by list as terminal lines."""
    return ["", "Games by rating list:", f"  {view.intro}", *(f"  {line}" for line in view.lines)]
