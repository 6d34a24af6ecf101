"""Our figures against the ones the source publishes: chess-results' ``rtg+/-`` and ``Rp``.

Pure: a :class:`~importer.model.Tournament` (its players carry the published figures,
``Player.rating_change`` and ``Player.published_performance``) and the
:class:`~rating.results.TournamentRating` computed from it go in; a
:class:`PublishedCheck` comes out, one :class:`Comparison` per figure.

Rating change: chess-results prints Swiss-Manager's per-tournament change, K × Σ(S − PD) to
the hundredth (trailing zeros dropped: ``11,5``), unrounded, with no K × n ≤ 700 cap and no
other events.  Ours is the same sum (:mod:`rating.tournament`), so the
two are compared exactly at the hundredth, ours rounded half away from zero first (an Elo
expected score has three decimals).  Where they differ and a game is more than the cap apart,
the other readings of the 400-point rule (every game, once per tournament, none from 2650) are
tried, and the one that reproduces the published figure is named: Swiss-Manager may not
switch rule versions on the same dates as FIDE (R22 8.3.1, R24 8.3.1).

Performance: ours is Rp = round(Ra) + dp(p) over the games against rated opponents (FIDE
table 8.1.1); chess-results prints Swiss-Manager's Rp beside n, w and we.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from importer.model import Player, RatingList, Status, Tournament
from rating.numbers import to_cent, to_decimal
from rating.results import PlayerRating, TournamentRating
from rating.systems import fide
from rating.systems.fide_rules import CapRule, FideRules, all_rules, rules_for

__all__ = ["Comparison", "Disagreement", "PublishedCheck", "compare_published"]



@dataclass(frozen=True, slots=True, kw_only=True)
class Disagreement:
    """One player whose figure differs from the published one."""

    start_no: int
    name: str
    ours: Decimal | None
    """Our figure (a change to the hundredth, a performance as a whole number); None when the
    player is unrated here but has a published change."""
    theirs: Decimal
    """The published figure, as printed."""
    notes: tuple[str, ...] = ()
    """What differs behind the figures: K, games, expected score, a cap reading that agrees."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """One published figure compared for every player that has it."""

    figure: str
    """'rating change' or 'performance (Rp)'."""
    source: str
    compared: int
    agreements: int
    disagreements: tuple[Disagreement, ...] = ()
    players: tuple[int, ...] = ()
    """The start numbers compared."""
    method: str = ""
    """How ours and the source's figure are computed, in one sentence."""

    @property
    def summary(self) -> str:
        """'108 of 108 players agree with chess-results' published rating change'."""
        owner = self.source + ("'" if self.source.endswith("s") else "'s")
        if self.compared == 0:
            return f"no player has {owner} published {self.figure} and games to compare"
        players = "player agrees" if self.compared == 1 else "players agree"
        return f"{self.agreements} of {self.compared} {players} with {owner} published {self.figure}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PublishedCheck:
    """The rating change and the performance against the published ones."""

    source: str
    change: Comparison
    performance: Comparison
    notes: tuple[str, ...] = ()
    """Why nothing or not everything was compared."""

    @property
    def compared(self) -> bool:
        """Whether any published figure was compared."""
        return self.change.compared > 0 or self.performance.compared > 0


def _readings(cap: int) -> list[tuple[str, CapRule, int | None]]:
    """The readings of the difference cap the standard rule versions hold (a *cap*-point cap
    on every game, on one game per tournament, none from 2650), in words, once each."""
    out: list[tuple[str, CapRule, int | None]] = []
    for r in all_rules():
        if r.rating_list is not RatingList.STANDARD or any(c is r.cap_rule for _, c, _ in out):
            continue
        year = f" ({r.valid_from.year} rule)" if r.valid_from.year > 1 else ""
        words = {CapRule.EVERY_GAME: f"the {cap}-point cap on every game",
                 CapRule.ONCE_PER_TOURNAMENT: f"the {cap}-point cap on one game per tournament",
                 CapRule.BELOW_2650: f"the {cap}-point cap with no cap from {r.no_cap_from}"}
        out.append((words[r.cap_rule] + year, r.cap_rule, r.no_cap_from))
    return out


def _total(pr: PlayerRating, rules: FideRules) -> Decimal | None:
    """The player's change re-rated under *rules* (the same games, ratings and K)."""
    own = pr.rating
    lines = [ln for ln in pr.rounds if ln.rated and ln.opponent_rating is not None
             and ln.k is not None and ln.points is not None]
    if own is None or not lines:
        return None
    opponents = [ln.opponent_rating for ln in lines if ln.opponent_rating is not None]
    mask = fide.cap_mask(own, opponents, rules)
    total = Decimal(0)
    for ln, opp, capped in zip(lines, opponents, mask, strict=True):
        pd = to_decimal(fide.expected_h(own, opp, rules, capped=capped))
        total += (ln.k or 0) * ((ln.points or Decimal(0)) - pd)
    return total


def _cap_readings(pr: PlayerRating, rules: FideRules | None, theirs: Decimal) -> list[str]:
    """The readings of the rating-difference cap under which our games give *theirs*."""
    if rules is None or pr.rating is None:
        return []
    own = pr.rating
    if not any(ln.rated and ln.opponent_rating is not None
               and abs(own - ln.opponent_rating) > rules.cap for ln in pr.rounds):
        return []
    out = []
    for label, cap_rule, no_cap_from in _readings(rules.cap):
        if (cap_rule, no_cap_from) == (rules.cap_rule, rules.no_cap_from):
            continue
        total = _total(pr, replace(rules, cap_rule=cap_rule, no_cap_from=no_cap_from))
        if total is not None and to_cent(total) == theirs:
            out.append(label)
    return out


def _change_notes(p: Player, pr: PlayerRating, rules: FideRules | None,
                  theirs: Decimal) -> tuple[str, ...]:
    notes: list[str] = []
    if pr.rating is None:
        notes.append("unrated here")
    if p.k is not None and pr.k is not None and p.k != pr.k:
        notes.append(f"K {pr.k} here, {p.k} published")
    if p.published_games is not None and p.published_games != pr.rated_games:
        notes.append(f"{pr.rated_games} rated games here, {p.published_games} published")
    if p.published_expected is not None and pr.rated_games and to_cent(pr.expected) != (
            p.published_expected):
        notes.append(f"expected score {to_cent(pr.expected)} here, {p.published_expected} "
                     "published")
    notes += [f"agrees under {label}" for label in _cap_readings(pr, rules, theirs)]
    return tuple(notes)


def _performance_notes(p: Player, pr: PlayerRating) -> tuple[str, ...]:
    games = sum(1 for ln in pr.rounds if ln.status is Status.PLAYED
                and ln.opponent_rating is not None)
    if p.published_games is not None and p.published_games != games:
        return (f"{games} games against rated opponents here, {p.published_games} published",)
    return ()


def _fide_rules(rating: TournamentRating) -> FideRules | None:
    if rating.system != "fide":
        return None
    return rules_for(rating.on, rating.rating_list)


def compare_published(t: Tournament, rating: TournamentRating, *,
                      source: str = "chess-results",
                      only: Collection[int] | None = None) -> PublishedCheck:
    """Compare each player's published rating change and performance with ours.

    *only* limits the check to these start numbers (a report about one player).  A player is
    compared when the source publishes the figure and the tournament holds their rounds; the
    change only under the FIDE system (the published figure is FIDE's).
    """
    notes: list[str] = []
    with_rounds = {r.start_no for r in t.results}
    by_no = t.players_by_no()
    rules = _fide_rules(rating)
    chosen: Sequence[PlayerRating] = [pr for pr in rating.players
                                      if only is None or pr.start_no in only]
    published = [pr for pr in chosen if (p := by_no.get(pr.start_no)) is not None
                 and (p.rating_change is not None or p.published_performance is not None)]
    if published and not with_rounds:
        notes.append(f"{source} publishes rating figures, but the pages hold no games: add "
                     "the crosstable (or the pairings) to compare them")
    if rating.system != "fide" and any(by_no[pr.start_no].rating_change is not None
                                       for pr in published):
        notes.append(f"the published rating change is FIDE's; this report rates with "
                     f"{rating.label}: not compared")
    lonely: list[int] = []
    change_rows: list[tuple[Player, PlayerRating, Decimal]] = []
    perf_rows: list[tuple[Player, PlayerRating, Decimal]] = []
    for pr in published:
        p = by_no[pr.start_no]
        if pr.start_no not in with_rounds:
            continue
        if p.rating_change is not None and rules is not None:
            change_rows.append((p, pr, p.rating_change))
        if p.published_performance is not None and pr.performance is not None:
            perf_rows.append((p, pr, Decimal(p.published_performance)))
        elif p.published_performance is not None:
            lonely.append(p.start_no)
    change_off: list[Disagreement] = []
    for p, pr, theirs in change_rows:
        ours = to_cent(pr.change) if pr.rating is not None else None
        if ours != theirs:
            change_off.append(Disagreement(start_no=p.start_no, name=p.name, ours=ours,
                                           theirs=theirs,
                                           notes=_change_notes(p, pr, rules, theirs)))
    behind = sum(1 for p, pr, _ in change_rows
                 if p.published_games is not None and pr.rated_games > p.published_games)
    if change_rows and behind * 2 >= len(change_rows):
        notes.append(f"{behind} of {len(change_rows)} players have more rated games here than "
                     f"{source} counts (n): its figures seem to be from an earlier round than "
                     "the games on the pages")
    if lonely:
        notes.append(f"{len(lonely)} player{'s' if len(lonely) > 1 else ''} with a published "
                     f"Rp but no game against a rated opponent here (start no. "
                     f"{', '.join(map(str, lonely[:10]))}): performance not compared")
    perf_off: list[Disagreement] = []
    for p, pr, theirs in perf_rows:
        ours = Decimal(pr.performance or 0)
        if ours != theirs:
            perf_off.append(Disagreement(start_no=p.start_no, name=p.name, ours=ours,
                                         theirs=theirs, notes=_performance_notes(p, pr)))
    rule_name = rating.rules
    ref = rules or rules_for(rating.on, rating.rating_list)
    no_cap = f"no K × n ≤ {ref.period_cap} cap" if ref.period_cap is not None else "no cap on K × n"
    change = Comparison(
        figure="rating change", source=source, compared=len(change_rows),
        agreements=len(change_rows) - len(change_off), disagreements=tuple(change_off),
        players=tuple(p.start_no for p, _, _ in change_rows),
        method=(f"Ours is K × Σ(S − PD) over the games against rated opponents, with the "
                f"tournament's ratings and K and the rules of its start date ({rule_name}), "
                f"unrounded, compared at the hundredth; {source} prints Swiss-Manager's "
                f"figure for this tournament alone (its K and its reading of the {ref.cap}-point "
                f"rule, {no_cap}, no other events), not FIDE's official result. "
                f"Where they differ, the other readings of the {ref.cap}-point rule are tried and "
                "named when one agrees."))
    performance = Comparison(
        figure="performance (Rp)", source=source, compared=len(perf_rows),
        agreements=len(perf_rows) - len(perf_off), disagreements=tuple(perf_off),
        players=tuple(p.start_no for p, _, _ in perf_rows),
        method=("Ours is Rp = round(Ra) + dp(p) from FIDE table 8.1.1 over the games against "
                "rated opponents (Ra their average rating, p the score to the hundredth); "
                f"{source} prints Swiss-Manager's Rp over its n games, computed the same way "
                "as far as is known."))
    return PublishedCheck(source=source, change=change, performance=performance,
                          notes=tuple(notes))
