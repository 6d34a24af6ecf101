"""An independent reading of the FIDE Title Regulations (in force from 1 January 2024) for the
tests: which GM, IM, WGM and WIM norms each player of an event made, could still make or
missed, with Ra and Rp.

Written from the regulations' text (articles cited) and the issue's explicit readings, on the
tournament model alone: nothing is imported from ``rating`` (neither the norm check nor its
rule values), and table 8.1.1 (1.4.9's dp) is read from the spec's transcription.  What no
page shows (time control, registration, the chief arbiter, the event class) is left out, as
the check leaves it "not checked".

1.4.1e–f are read by brute force over subsets: every prefix of rounds (a Swiss) and every set
of won games left out of it, the one counting the most games toward a title application."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import chain, combinations
from pathlib import Path

from importer.model import RatingList, RoundResult, Status, System, Tournament


@dataclass(frozen=True)
class Norm:
    floor: int  # 1.4.7
    min_ra: int  # 1.4.8 (0.5)
    min_rp: int
    higher: frozenset[str]  # 1.4.5b: the title sought or higher


NORMS = {
    "GM": Norm(2200, 2380, 2600, frozenset({"GM"})),
    "IM": Norm(2050, 2230, 2450, frozenset({"GM", "IM"})),
    "WGM": Norm(2000, 2180, 2400, frozenset({"GM", "IM", "WGM"})),
    "WIM": Norm(1850, 2030, 2250, frozenset({"GM", "IM", "WGM", "WIM"})),
}
TITLEHOLDERS = {"GM", "IM", "WGM", "WIM", "FM", "WFM"}  # 1.4.5a: not CM or WCM
WOMEN_TITLES = {"WGM", "WIM", "WFM", "WCM"}
UNRATED = 1400  # 1.4.6b
PRESENT = {Status.PLAYED, Status.PENDING, Status.FORFEIT_WIN, Status.UNPLAYED}


def dp_table(spec: Path) -> dict[int, int]:
    """Table 8.1.1 (= 1.4.9) from the spec's transcription: percentage → dp."""
    text = spec.read_text(encoding="utf-8")
    section = text[text.index("### 6.3 Table 8.1.1"):text.index("### 6.4")]
    table: dict[int, int] = {}
    for p, dp in re.findall(r"(\d\.\d\d) \| (−?\d+)", section):
        table[round(float(p) * 100)] = int(dp.replace("−", "-"))
    assert len(table) == 101
    return table


@dataclass(frozen=True)
class Reading:
    result: str  # achieved, possible, missed, not decidable
    ra: int | None
    rp: int | None
    rounds: int
    dropped: frozenset[int] = frozenset()  # 1.4.1f: the won games left out


def both(*oks: bool | None) -> bool | None:
    """Every condition: False if one fails, None (not known) if one is unknown."""
    return False if False in oks else None if None in oks else True


class Oracle:
    """One event read through the regulations."""

    def __init__(self, t: Tournament, dp: dict[int, int]) -> None:
        self.t, self.dp = t, dp
        self.by_no = {p.start_no: p for p in t.players}
        self.rows = {(r.start_no, r.round): r for r in t.results}
        self.planned = t.info.rounds or max((r.round for r in t.results), default=0)
        self.live = max((r.round for r in t.results
                         if r.status is Status.PENDING and r.opponent_no), default=None)
        self.excluded = self._unrated_on_zero() if t.info.system is System.ROUND_ROBIN else set()
        self.exempt = self._swiss_exemption()
        self.event_ok = self._event()

    # --- the event ---

    def _unrated_on_zero(self) -> set[int]:
        """1.4.2b: in a round robin, unrated players who scored 0 against rated players."""
        points: dict[int, Decimal] = {}
        for r in self.t.results:
            me, opp = self.by_no.get(r.start_no), self.by_no.get(r.opponent_no or -1)
            if r.status is Status.PLAYED and me and opp and me.rating is None and opp.rating:
                points[r.start_no] = points.get(r.start_no, Decimal(0)) + (r.points or 0)
        return {no for no, pts in points.items() if pts == 0}

    def _swiss_exemption(self) -> bool | None:
        """1.4.3d: a Swiss where every round had 20 rated players from 3 federations other
        than the host's, 10 of them GM, IM, WGM or WIM (players who missed at most one
        round); FID is no federation."""
        if self.t.info.system is not System.SWISS:
            return False
        host = self.t.info.federation
        if not host:
            return None
        seen = max((r.round for r in self.t.results), default=0)
        if not seen:
            return None  # no round yet: nothing shows who will play

        def there(no: int, rd: int) -> bool:
            r = self.rows.get((no, rd))
            return r is not None and (r.status in PRESENT
                                      or (r.status is Status.BYE and not r.requested))
        field = [p for p in self.t.players if p.rating and p.federation not in ("", host, "FID")
                 and sum(not there(p.start_no, rd) for rd in range(1, seen + 1)) <= 1]
        for rd in range(1, seen + 1):
            here = [p for p in field if there(p.start_no, rd)]
            if (len(here) < 20 or len({p.federation for p in here}) < 3
                    or sum(p.title in ("GM", "IM", "WGM", "WIM") for p in here) < 10):
                return False
        return True

    def _event(self) -> bool | None:
        """1.1: standard games only; at most two rounds a day (where every date is shown)."""
        info = self.t.info
        if info.rating_list in (RatingList.RAPID, RatingList.BLITZ):
            return False
        dates = info.round_dates
        seen = max((r.round for r in self.t.results), default=0)
        if dates and len(dates) >= seen and all(dates):
            return max(dates.count(d) for d in dates) <= 2
        return None  # not shown: "not checked", which never decides

    # --- one player ---

    def sought(self, no: int) -> list[str]:
        """GM for all but GMs, IM for all but GMs and IMs, WGM for women holding neither GM
        nor WGM, WIM for women holding none of GM, IM, WGM, WIM (the issue's reading)."""
        p = self.by_no[no]
        title = p.title.upper()
        woman = title in WOMEN_TITLES or p.sex.lower() in ("w", "f")
        out = [n for n, barred in (("GM", {"GM"}), ("IM", {"GM", "IM"})) if title not in barred]
        if woman:
            out += [n for n, barred in (("WGM", {"GM", "WGM"}),
                                        ("WIM", {"GM", "IM", "WGM", "WIM"})) if title not in barred]
        return out

    def done(self, no: int) -> int:
        """The rounds finished, one after the other from round 1."""
        k = 0
        while (r := self.rows.get((no, k + 1))) and r.status not in (Status.PENDING,
                                                                     Status.UNKNOWN):
            k += 1
        return k

    def games(self, no: int, last: int, drop: frozenset[int] = frozenset()) -> list[RoundResult]:
        """1.4.2: the games over the board in rounds 1..last (no forfeits or byes), without
        the rounds *drop* (1.4.1f)."""
        return [r for rd in range(1, last + 1) if (r := self.rows.get((no, rd)))
                and r.status is Status.PLAYED and r.opponent_no in self.by_no
                and r.opponent_no not in self.excluded and rd not in drop]

    def excused(self, no: int, last: int, drop: frozenset[int] = frozenset()) -> bool:
        """1.4.1: a 9-round event whose one round without a counted game is a forfeit win or
        a pairing-allocated bye."""
        counted = {r.round for r in self.games(no, last, drop)}
        missing = [self.rows.get((no, rd)) for rd in range(1, last + 1) if rd not in counted]
        return (self.planned == 9 and len(missing) == 1 and missing[0] is not None
                and (missing[0].status is Status.FORFEIT_WIN
                     or (missing[0].status is Status.BYE and not missing[0].requested)))

    def ra(self, games: list[RoundResult], norm: str) -> int | None:
        """1.4.6–1.4.7: the average of the opponents' ratings (unrated 1400), the lowest one
        alone raised to the floor, rounded to the nearest whole number, .5 up."""
        opps = [self.by_no[g.opponent_no or 0] for g in games]
        if not opps or not all(o.rating_known for o in opps):
            return None
        ratings = sorted(o.rating or UNRATED for o in opps)
        ratings[0] = max(ratings[0], NORMS[norm].floor)
        return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))

    def rp(self, ra: int, halves: int, n: int) -> int:
        """1.4.9: Ra + dp of the percentage rounded to the nearest whole number, .5 up."""
        return ra + self.dp[(100 * halves + n) // (2 * n)]

    def least_halves(self, ra: int, n: int, norm: str) -> int | None:
        """The least score (in half points) over n games with Rp and 35 % (1.4.8)."""
        return next((h for h in range(2 * n + 1)
                     if self.rp(ra, h, n) >= NORMS[norm].min_rp and 10 * h >= 7 * n), None)

    def conditions(self, no: int, norm: str, last: int, drop: frozenset[int] = frozenset()
                   ) -> dict[str, bool | None]:
        """Each condition over rounds 1..last, the rounds *drop* left out."""
        rule = NORMS[norm]
        games = self.games(no, last, drop)
        n, halves = len(games), sum(int(2 * (g.points or 0)) for g in games)
        opps = [self.by_no[g.opponent_no or 0] for g in games]
        ra = self.ra(games, norm)
        shown = any(p.title for p in self.t.players)
        me = self.by_no[no].federation
        feds = [o.federation for o in opps]
        real = [f for f in feds if f != "FID"]  # 1.4.3: FID counts for games, not federations
        out: dict[str, bool | None] = {
            "games": n >= 9 or (n == 8 and last == self.planned and self.excused(no, last, drop)),
            "ra": None if ra is None else ra >= rule.min_ra,
            "rp": None if ra is None else self.rp(ra, halves, n) >= rule.min_rp,
            "35 %": 10 * halves >= 7 * n if n else False,
            "titled": 2 * sum(o.title.upper() in TITLEHOLDERS for o in opps) >= n
            if shown else None,
            "title": (lambda k: k >= 3 and 3 * k >= n)(
                sum(o.title.upper() in rule.higher for o in opps)) if shown else None,
        }
        if n == 0:
            out["ra"] = out["rp"] = False
        if not me or "" in feds:
            out["federations"] = None
        else:
            normal = (len({f for f in real if f != me}) >= 2
                      and 5 * (real.count(me) if me != "FID" else 0) <= 3 * n
                      and 3 * max((real.count(f) for f in real), default=0) <= 2 * n)
            out["federations"] = True if normal else (None if self.exempt is None
                                                      else self.exempt)
        out["event"] = self.event_ok if self.event_ok is False else True
        return out

    def reading(self, no: int, norm: str) -> Reading:
        """What the regulations give for one player's norm, live or finished."""
        done = self.done(no)
        rr = self.t.info.system is System.ROUND_ROBIN
        remaining = max(self.planned - done, 0)
        made = [(k, drop) for k in range(1, done + 1) for drop in self.wins_left_out(no, k)
                if both(*self.conditions(no, norm, k, drop).values())
                and (not rr or (k == done and remaining == 0
                                and (not drop or self.whole_mix(no, norm, done))))]
        if made:  # 1.4.1e: in a Swiss the best prefix of rounds counts, never in a round robin
            best = max(made, key=lambda w: self.window_key(no, norm, *w))
            return self._figures(no, norm, *best, result="achieved")
        if not remaining:
            ok = both(*self.conditions(no, norm, done).values())
            return self._figures(no, norm, done, result="missed" if ok is False else "not decidable")
        game = self.rows.get((no, self.live)) if self.live else None
        if game is not None and game.status is Status.PENDING and game.opponent_no:
            # the game in progress: the norm is still possible if a result of it keeps it so
            then = [Oracle(played(self.t, game, pts), self.dp).reading(no, norm).result
                    for pts in (Decimal(0), Decimal("0.5"), Decimal(1))]
            kept = {"achieved", "possible"} & set(then)
            return self._figures(no, norm, done, result="possible" if kept else then[-1])
        reach = self._reachable(no, norm, done, remaining)
        return self._figures(no, norm, done, result="possible" if reach else "missed")

    def wins_left_out(self, no: int, last: int) -> list[frozenset[int]]:
        """1.4.1f: every set of won games over the board in rounds 1..last (the empty one
        first) — all of them, the conditions decide which leave enough games."""
        wins = [g.round for g in self.games(no, last) if g.points == 1]
        return [frozenset(s) for s in chain.from_iterable(
            combinations(wins, size) for size in range(len(wins) + 1))]

    def whole_mix(self, no: int, norm: str, done: int) -> bool:
        """1.4.1f in a round robin: the whole event's games, Ra, titles, federations and the
        event itself allow a norm (the score aside)."""
        have = self.conditions(no, norm, done)
        return all(ok is True for name, ok in have.items() if name not in ("rp", "35 %"))

    def window_key(self, no: int, norm: str, last: int, drop: frozenset[int]
                   ) -> tuple[int, int, int, int, int, tuple[int, ...]]:
        """The window that counts: the most games toward a title application, then the most
        games, the longest, the best Rp and Ra, then leaving out the earliest rounds."""
        figures = self._figures(no, norm, last, drop, result="")
        return (self.application(no, norm, last, drop), len(self.games(no, last, drop)), last,
                figures.rp or 0, figures.ra or 0, tuple(-r for r in sorted(drop)))

    def application(self, no: int, norm: str, last: int, drop: frozenset[int] = frozenset()
                    ) -> int:
        """1.4.1d: each full point above the score the norm needs is one more game (13 at
        most: more than 13 rounds count as 13)."""
        games = self.games(no, last, drop)
        ra, n = self.ra(games, norm), len(games)
        need = self.least_halves(ra, n, norm) if ra is not None else None
        over = (sum(int(2 * (g.points or 0)) for g in games) - need) // 2 if need is not None else 0
        return min(13, n + max(over, 0))

    def _figures(self, no: int, norm: str, last: int, drop: frozenset[int] = frozenset(), *,
                 result: str) -> Reading:
        games = self.games(no, last, drop)
        ra = self.ra(games, norm)
        halves = sum(int(2 * (g.points or 0)) for g in games)
        return Reading(result, ra, None if ra is None else self.rp(ra, halves, len(games)), last,
                       drop)

    def _reachable(self, no: int, norm: str, done: int, remaining: int) -> bool:
        """Whether the rounds not yet paired could still make every condition not met: at
        best each is won against a holder of the title sought from a federation not yet met,
        at the current Ra (an estimate)."""
        have = self.conditions(no, norm, done)
        if have["event"] is False:
            return False
        games = self.games(no, done)
        total = len(games) + remaining
        halves = sum(int(2 * (g.points or 0)) for g in games)
        opps = [self.by_no[g.opponent_no or 0] for g in games]
        me = self.by_no[no].federation
        real = [o.federation for o in opps if o.federation != "FID"]
        ra = self.ra(games, norm)
        can = {
            "games": total >= 9 or (total == 8 and self.excused(no, done)),
            "rp": ra is None or ((need := self.least_halves(ra, total, norm)) is not None
                                 and need <= halves + 2 * remaining),
            "titled": 2 * (sum(o.title.upper() in TITLEHOLDERS for o in opps) + remaining)
            >= total,
            "title": (lambda k: k >= 3 and 3 * k >= total)(
                sum(o.title.upper() in NORMS[norm].higher for o in opps) + remaining),
            "federations": len({f for f in real if f != me}) + remaining >= 2
            and 5 * (real.count(me) if me != "FID" else 0) <= 3 * total
            and 3 * max((real.count(f) for f in real), default=0) <= 2 * total,
        }
        can["35 %"] = 10 * (halves + 2 * remaining) >= 7 * total
        return all(can.get(name, True) for name, ok in have.items() if ok is False)


def played(t: Tournament, game: RoundResult, points: Decimal) -> Tournament:
    """*t* with the pending *game* scored *points*, its opponent's result mirrored."""
    def fill(r: RoundResult) -> RoundResult:
        if r is game:
            return replace(r, status=Status.PLAYED, points=points)
        if (r.start_no, r.round) == (game.opponent_no, game.round) and r.status is Status.PENDING:
            return replace(r, status=Status.PLAYED, points=1 - points)
        return r
    return replace(t, results=tuple(fill(r) for r in t.results))
