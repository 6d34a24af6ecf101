"""A period against FIDE's own calculations page for one player.

Pure: a :class:`~importer.formats.fidecalc.FideCalculation` (FIDE's figures) and the
:class:`~rating.period.records.PeriodResult` computed from the month's tournaments go in; a
:class:`FideCheck` comes out, listing every figure that differs with both values.

Compared, per game: the opponent rating used (after the cap), the cap mark, the result,
chg = S − PD, K and K × chg; per event: Ro, Rc, w, n, chg, K and K × chg; for the period the
"Total change" against our Σ K × (S − PD).  FIDE prints hundredths, as we compute them
(R24 8.3.2), so equal means equal; our Rc is the average of the ratings used, rounded half up
(FIDE does not say how it rounds Rc).  A page game is matched to ours by the opponent's name,
else by its place among the event's games; a game on one side only is a difference too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from importer.formats.fidecalc import FideCalculation, FideEvent, FideGame
from importer.identity import same_player
from rating.numbers import to_decimal
from rating.period.records import PeriodGame, PeriodPlayer, PeriodResult
from rating.systems import fide

__all__ = ["FideCheck", "FideDifference", "check_fide_page"]

MISSING = "—"
"""A figure one side does not have (a game FIDE lists and we do not rate, or the reverse)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FideDifference:
    """One figure that differs: where it is, FIDE's value and ours, as printed."""

    fide_id: str
    tournament: str
    """The tournament's key in the period ('' for the period's total)."""
    game: str
    """'round 3, Quinn, Ada' for a game; '' for the event's or the period's figures."""
    figure: str
    fide: str
    ours: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FideCheck:
    """FIDE's page for one player against the period."""

    source: str
    fide_id: str
    name: str
    compared: int
    """The figures compared."""
    key: str = ""
    """The player's key in the period ('' when not found there)."""
    differences: tuple[FideDifference, ...] = ()
    notes: tuple[str, ...] = ()
    """Why something was not compared."""

    @property
    def summary(self) -> str:
        """'FIDE's calculations (x.html) for Garr, Fay: 0 differences in 74 figures'."""
        n = len(self.differences)
        return (f"FIDE's calculations ({self.source}) for {self.name or self.fide_id}: "
                f"{n} difference{'' if n == 1 else 's'} in {self.compared} figures")



def _shown(value: object) -> str:
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class _Diffs:
    def __init__(self, fide_id: str) -> None:
        self.fide_id = fide_id
        self.compared = 0
        self.found: list[FideDifference] = []

    def add(self, tournament: str, game: str, figure: str, fide: object, ours: object) -> None:
        """Compare one figure; a figure FIDE's page does not print is not compared."""
        if fide is None:
            return
        self.compared += 1
        if fide != ours:
            self.found.append(FideDifference(fide_id=self.fide_id, tournament=tournament,
                                             game=game, figure=figure, fide=_shown(fide),
                                             ours=_shown(ours)))


def _pairs(page: Sequence[FideGame], ours: Sequence[PeriodGame]
           ) -> list[tuple[FideGame | None, PeriodGame | None]]:
    """FIDE's games with ours: by the opponent's name, then in order."""
    left = list(ours)
    matched: list[tuple[FideGame | None, PeriodGame | None]] = []
    unnamed: list[FideGame] = []
    for g in page:
        found = next((o for o in left if same_player("", o.opponent_name, "", g.opponent)),
                     None)
        if found is None:
            unnamed.append(g)
            continue
        left.remove(found)
        matched.append((g, found))
    for g in unnamed:
        matched.append((g, left.pop(0) if left else None))
    matched += [(None, o) for o in left]
    return matched


def _event(d: _Diffs, ev: FideEvent, key: str, ours: Sequence[PeriodGame], *,
           marks: bool) -> None:
    for g, o in _pairs(ev.games, ours):
        label = (f"round {o.round}, {o.opponent_name}" if o is not None
                 else f"{g.opponent if g is not None else ''}")
        if g is None or o is None:
            d.add(key, label, "rated game", "listed" if g is not None else MISSING,
                  "rated" if o is not None else MISSING)
            continue
        d.add(key, label, "opponent rating", g.rating, o.opponent_rating)
        if marks:
            d.add(key, label, "capped (*)", g.capped, o.capped)
        d.add(key, label, "result", g.result, to_decimal(o.score_h))
        d.add(key, label, "chg", g.change, to_decimal(o.score_h - o.expected_h))
        d.add(key, label, "K", g.k, o.k)
        d.add(key, label, "K×chg", g.k_change, to_decimal(o.change_h))
    ratings = {o.own_rating for o in ours}
    d.add(key, "", "Ro", ev.ro, ratings.pop() if len(ratings) == 1 else None)
    if ours:
        d.add(key, "", "Rc", ev.rc, fide.average_rating([o.opponent_rating for o in ours]))
    d.add(key, "", "w", ev.w, to_decimal(sum(o.score_h for o in ours)))
    d.add(key, "", "n", ev.n, len(ours))
    d.add(key, "", "chg", ev.change, to_decimal(sum(o.score_h - o.expected_h for o in ours)))
    ks = {o.k for o in ours}
    d.add(key, "", "K", ev.k, ks.pop() if len(ks) == 1 else None)
    d.add(key, "", "K×chg", ev.k_change, to_decimal(sum(o.change_h for o in ours)))


def _player(calc: FideCalculation, result: PeriodResult) -> PeriodPlayer | None:
    rows = [p for p in result.players if calc.rating_list is None or p.list is calc.rating_list]
    return next((p for p in sorted(rows, key=lambda p: not p.fide_id)  # a FIDE id first
                 if same_player(p.fide_id, p.name, calc.fide_id, calc.name)), None)


def check_fide_page(calc: FideCalculation, result: PeriodResult,
                    tournaments: Mapping[int, str], *,
                    from_page: Collection[int] = ()) -> FideCheck:
    """Compare FIDE's page with the period: *tournaments* maps each event of the page (its
    index) to the key of the period's tournament that holds it; *from_page* are the events
    rated from the page itself (their cap marks are not compared: the page prints only the
    capped rating, so ours sits exactly at the cap)."""
    who = calc.name or calc.fide_id
    player = _player(calc, result)
    d = _Diffs(calc.fide_id or (player.fide_id if player else ""))
    notes: list[str] = []
    if player is None:
        notes.append(f"{who} is not among the period's players: FIDE's calculations "
                     f"({calc.source}) not compared")
        return FideCheck(source=calc.source, fide_id=d.fide_id, name=calc.name, compared=0,
                         notes=tuple(notes))
    if player.old_rating is None:
        notes.append(f"{who} is unrated here: FIDE's calculations ({calc.source}) show games "
                     "pooled for a first rating, which are not compared")
        return FideCheck(source=calc.source, fide_id=d.fide_id, name=calc.name or player.name,
                         compared=0, key=player.key, notes=tuple(notes))
    games = result.games_of(player.key)
    for i, ev in enumerate(calc.events):
        key = tournaments.get(i)
        if key is None:  # pragma: no cover - every event is rated from somewhere
            continue
        _event(d, ev, key, [g for g in games if g.tournament == key and g.list is player.list],
               marks=i not in from_page)
    d.add("", "", "total change", calc.total_change, to_decimal(player.change_h))
    return FideCheck(source=calc.source, fide_id=d.fide_id, name=calc.name or player.name,
                     compared=d.compared, key=player.key, differences=tuple(d.found),
                     notes=tuple(notes))
