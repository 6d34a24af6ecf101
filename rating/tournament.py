"""The tournament view: each player's rating change over one tournament, round by round.

This is what chess-results and Swiss-Manager publish beside each game: K × (S − PD)
with the ratings of the tournament (the list in force at its start) and the rules in
force on its start date, summed unrounded per player; only the new rating is rounded
(R24 8.3.4).  Under FIDE's rules K × n ≤ 700 (R24 8.3.3) holds over the tournament's
rated games; other events of the period are the rating-period engine's job.

Ratings are the source's, as printed: a source prints one FIDE rating per player, the one of
the tournament's list, so for a rapid or blitz event it cannot show the standard rating of a
player unrated there (RB24 7.2.1, :func:`rating.systems.fide.list_rating`).  Swiss-Manager and FIDE's
server print that standard rating in the rapid or blitz column already; a player the source
shows unrated is taken as unrated here.  The rating period, which has the previous lists,
applies the rule itself (:mod:`rating.period.engine`).

The rating system is a parameter (FIDE, generic Elo, a national system such as UKD, or a
name from :mod:`rating.systems.registry`); every player's games go through the system's ``rate``.

Result types (in :mod:`rating.results`, re-exported here): :class:`TournamentRating` → one
:class:`PlayerRating` per player → one :class:`RoundLine` per round and one
:class:`Scenario` per paired, unfinished game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from importer.model import (
    DateSource,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.errors import RatingError
from rating.results import (
    ZERO,
    GameRating,
    PlayerNote,
    PlayerRating,
    RoundLine,
    Scenario,
    TournamentRating,
)
from rating.systems import registry
from rating.systems.base import FideSystem, RatingSystem
from rating.systems.fide import KSource, PlayerFacts, is_junior_category, plausible_birth_year
from rating.systems.fide_rules import FideRules, previous_rules, rules_for
from rating.systems.time_controls import standard_time

__all__ = [
    "KLookup",
    "KSource",
    "PlayerNote",
    "PlayerRating",
    "RoundLine",
    "RulesDate",
    "Scenario",
    "TournamentRating",
    "k_cap_reason",
    "rate_tournament",
    "rules_date",
]

KLookup = Callable[[Player], "int | None"]
"""K for a player from an outside source (e.g. the FIDE rating list in force), or None."""

_OUTCOMES = (Decimal(1), Decimal("0.5"), Decimal(0))

# R24 5.1: forfeits, byes and games of less than one move are not rated.
NOT_PLAYED_REASONS: dict[Status, str] = {
    Status.FORFEIT_WIN: "forfeit",
    Status.FORFEIT_LOSS: "forfeit",
    Status.UNPLAYED: "less than one move",
    Status.BYE: "bye",
    Status.HALF_BYE: "half-point bye",
    Status.ABSENT: "absent / not paired",
    Status.PENDING: "pending",
    Status.UNKNOWN: "not shown by the source",
}
OPPONENT_RATING_UNKNOWN = "opponent's rating not in the source"
OWN_RATING_UNKNOWN = "rating not in the source"

def _own_rating(system: RatingSystem, p: Player) -> int | None:
    """The rating a system uses: the national rating for a national system, else Player.rating
    as the source prints it (for a rapid or blitz event the source's rating is already the
    one RB24 7.2.1 gives: see the module docstring)."""
    return p.national_rating if system.national else p.rating


def _facts(system: RatingSystem, p: Player, rating: int | None, year: int,
           k_lookup: KLookup | None) -> PlayerFacts:
    """What is known of *p* for *system*'s K: a national system gets no K published or
    listed for FIDE."""
    national = system.national
    return PlayerFacts(rating=rating, year=year, birth_year=p.birth_year,
                       junior=is_junior_category(p.category), title=p.title,
                       published_k=None if national else p.k,
                       evaluations=p.national_evaluations if national else None,
                       list_k=k_lookup(p) if k_lookup and not national else None)


def _birth_year_notes(t: Tournament, year: int) -> list[PlayerNote]:
    """One note naming the players whose birth year cannot be one (it decides no K)."""
    return [PlayerNote(start_no=p.start_no, detail=f"born {p.birth_year}",
                       text=f"a birth year in or just before the event's year ({year}) is not "
                            "a player's: it is left out of the K")
            for p in t.players if p.birth_year is not None
            and plausible_birth_year(p.birth_year, year) is None]


def _player_k(system: RatingSystem, facts: PlayerFacts, k_default: int,
              card_ks: Sequence[int]) -> tuple[int, KSource]:
    """K by precedence: the card's per-game K, then the system's own rule (for FIDE
    :func:`rating.systems.fide.player_k`)."""
    if card_ks and not system.national:
        return max(set(card_ks), key=card_ks.count), KSource.CARD
    return system.player_k(facts, k_default)


def _rate(system: RatingSystem, own: int | None, k: int, opp: Sequence[int | None],
          scores: Sequence[Decimal], fides: Sequence[int | None],
          facts: PlayerFacts | None = None) -> tuple[list[GameRating], int]:
    """One player's played games through the system's ``rate``, and the K they are rated
    with: the system may cap it once it knows how many games are rated (FIDE: K × n ≤ 700,
    R24 8.3.3).  *fides* are the opponents' FIDE ratings."""
    games = list(zip(opp, scores, strict=True))
    rated = system.rate(own, k, games, list(fides), facts)
    capped = system.capped_k(k, sum(g.rated for g in rated))
    if capped != k:
        rated = system.rate(own, capped, games, list(fides), facts)
    return rated, capped


def _rate_player(system: RatingSystem, p: Player, rows: Sequence[RoundResult],
                 ratings: dict[int, int | None], fide_ratings: dict[int, int | None],
                 year: int, k_lookup: KLookup | None, k_default: int,
                 hidden: frozenset[int], too_fast: dict[tuple[int, int], str]) -> PlayerRating:
    own = ratings.get(p.start_no)
    published = [r.k for r in rows if r.k is not None and r.status is Status.PLAYED]
    facts = _facts(system, p, own, year, k_lookup)
    k, k_source = _player_k(system, facts, k_default, published)
    # A rating the source cut off is unknown, not unrated: such games are left out entirely.
    skipped = {r.round: OWN_RATING_UNKNOWN if p.start_no in hidden else OPPONENT_RATING_UNKNOWN
               for r in rows if r.status is Status.PLAYED
               and (p.start_no in hidden or r.opponent_no in hidden)}
    # So is a game below the standard minimum time (Rating Regulations 1.1, rating.systems.time_controls).
    slow = {r.round: too_fast[(p.start_no, r.round)] for r in rows
            if (p.start_no, r.round) in too_fast}
    skipped |= {r.round: slow[r.round] for r in rows
                if r.status is Status.PLAYED and r.round in slow and r.round not in skipped}
    played = [r for r in rows if r.status is Status.PLAYED and r.round not in skipped]
    opp = [ratings.get(r.opponent_no) if r.opponent_no is not None else None for r in played]
    scores = [r.points or Decimal(0) for r in played]
    fides = [fide_ratings.get(r.opponent_no) if r.opponent_no is not None else None
             for r in played]
    rated, capped = _rate(system, own, k, opp, scores, fides, facts)
    uncapped = k
    if k_source is not KSource.CARD:
        k = capped  # e.g. reduced so that K × n ≤ 700 (R24 8.3.3); the card's K stands
    before_cap = uncapped if uncapped != k else None
    if system.national:  # the coefficient the event's games decided (DWZ: E from W − We)
        k = next((g.k for g in rated if g.rated and g.opponent_rating is not None
                  and g.k is not None), k)
    card_ks = [r.k if k_source is KSource.CARD else None for r in played]
    by_round = {r.round: (g, ck) for r, g, ck in zip(played, rated, card_ks, strict=True)}

    lines: list[RoundLine] = []
    cumulative = ZERO
    for r in rows:
        known = r.opponent_no is not None and r.opponent_no in ratings
        line = RoundLine(round=r.round, status=r.status, opponent_no=r.opponent_no,
                         opponent_rating=(ratings.get(r.opponent_no)
                                          if r.opponent_no is not None else None),
                         colour=r.colour, points=r.points, rated=False,
                         reason=skipped.get(r.round)
                         or NOT_PLAYED_REASONS.get(r.status, r.status.value),
                         cumulative=cumulative, published_change=r.rating_change)
        hit = by_round.get(r.round) if r.status is Status.PLAYED else None
        if hit is not None:
            g, ck = hit
            if g.rated and g.expected is not None:
                change = _game_change(g, ck, k)
                cumulative += change
                line = replace(line, rated=True, reason=g.reason, k=ck or g.k or k,
                               expected=g.expected,
                               change=change, cumulative=cumulative, capped=g.capped)
            else:
                line = replace(line, reason=g.reason if known or r.opponent_no is None
                               else "opponent not in the player list")
        lines.append(line)

    rated_lines = [ln for ln in lines if ln.rated]
    vs_rated = [(o, s) for o, s in zip(opp, scores, strict=True) if o is not None]
    score_h = int(sum(s for _, s in vs_rated) * 100)
    performance = system.performance([o for o, _ in vs_rated], score_h)
    initial = (system.first_rating([o for o, _ in vs_rated], score_h)
               if own is None and p.start_no not in hidden else None)
    return PlayerRating(
        start_no=p.start_no, rating=own, k=k if own is not None else None, k_source=k_source,
        rounds=tuple(lines), rated_games=len(rated_lines),
        score=sum((ln.points or Decimal(0) for ln in rated_lines), Decimal(0)),
        points=_total_points(p, lines),
        expected=sum((ln.expected or ZERO for ln in rated_lines), ZERO), change=cumulative,
        new_rating=None if own is None else system.new_rating(own, cumulative),
        performance=performance,
        initial=initial,
        k_before_cap=before_cap,
        scenarios=() if p.start_no in hidden else _scenarios(
            system, own, uncapped, [r for r in rows if r.opponent_no not in hidden], ratings,
            fide_ratings, (opp, scores, fides, card_ks), cumulative, slow, facts),
        published_change=p.rating_change,
        assumed=system.assumptions(facts) if rated_lines else ())


def _game_change(g: GameRating, card_k: int | None, k: int) -> Decimal:
    """A rated game's change: with the card's K, K × (S − E); else the system's share of the
    event's change (``g.change``; K × (S − E) for an Elo-style system)."""
    assert g.expected is not None
    if card_k is None and g.change is not None:
        return g.change
    return (card_k or g.k or k) * (g.score - g.expected)


def _total_points(p: Player, lines: Sequence[RoundLine]) -> Decimal | None:
    """The printed points; else the rounds' sum when every round is known; else None."""
    if p.points is not None:
        return p.points
    if any(ln.status is Status.UNKNOWN for ln in lines):
        return None
    return sum((ln.points or Decimal(0) for ln in lines), Decimal(0))


def _scenarios(system: RatingSystem, own: int | None, k: int, rows: Sequence[RoundResult],
               ratings: dict[int, int | None], fide_ratings: dict[int, int | None],
               played: tuple[list[int | None], list[Decimal], list[int | None],
                             list[int | None]],
               current: Decimal, slow: dict[int, str], facts: PlayerFacts | None = None
               ) -> tuple[Scenario, ...]:
    """W/D/L for each pending game: the played games re-rated with that result added, so a
    once-per-tournament cap (R22 8.3.1) that moves to the new game is accounted for; each
    result's new rating by the system's ``new_rating``, as the player's own.  A game in a
    round of *slow* (below the standard minimum time) is not rated, for the reason given."""
    if own is None:
        return ()
    opp, scores, fides, card_ks = played
    out: list[Scenario] = []
    for r in rows:
        if r.status is not Status.PENDING or r.opponent_no is None:
            continue
        o = ratings.get(r.opponent_no)
        if r.round in slow:
            now = system.new_rating(own, current)
            out.append(Scenario(round=r.round, opponent_no=r.opponent_no, opponent_rating=o,
                                k=None, expected=None, win=None, draw=None, loss=None,
                                total_if_win=current, total_if_draw=current,
                                total_if_loss=current, new_if_win=now, new_if_draw=now,
                                new_if_loss=now, rated=False, reason=slow[r.round]))
            continue
        totals: list[Decimal] = []
        last: GameRating | None = None
        for s in _OUTCOMES:
            games, _ = _rate(system, own, k, [*opp, o], [*scores, s],
                             [*fides, fide_ratings.get(r.opponent_no)], facts)
            totals.append(sum((_game_change(g, ck, k)
                               for g, ck in zip(games, [*card_ks, None], strict=True)
                               if g.rated and g.expected is not None), ZERO))
            last = games[-1]
        if last is None or not last.rated or last.expected is None:
            reason = ("opponent not in the player list" if r.opponent_no not in ratings
                      else (last.reason if last is not None and last.reason
                            else system.not_rated_reason(own, o) or "not rated"))
            now = system.new_rating(own, current)
            out.append(Scenario(round=r.round, opponent_no=r.opponent_no, opponent_rating=o,
                                k=None, expected=None, win=None, draw=None, loss=None,
                                total_if_win=current, total_if_draw=current,
                                total_if_loss=current, new_if_win=now, new_if_draw=now,
                                new_if_loss=now, rated=False, reason=reason))
            continue
        win, draw, loss = (x - current for x in totals)
        if_win, if_draw, if_loss = (system.new_rating(own, x) for x in totals)
        out.append(Scenario(round=r.round, opponent_no=r.opponent_no, opponent_rating=o,
                            k=last.k or k, expected=last.expected, win=win, draw=draw,
                            loss=loss, total_if_win=totals[0], total_if_draw=totals[1],
                            total_if_loss=totals[2], new_if_win=if_win, new_if_draw=if_draw,
                            new_if_loss=if_loss))
    return tuple(out)


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesDate:
    """The date whose rules rate a tournament, where it comes from, and the plain-words note
    when it is not the event's own date."""

    on: date
    source: str
    """'details', 'round dates', 'title' (the event's dates); 'last update' (the source's last
    update, an upper bound); 'given' (the caller's date); 'none' (today: no date at all)."""
    note: str = ""


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December")
_CHANGES = (("K", ("k_new", "k_established", "k_top", "k_junior", "junior_below",
                   "top_threshold", "new_player_games", "top_needs_games", "period_cap")),
            ("rating-difference cap", ("cap", "cap_rule", "no_cap_from")),
            ("game-exclusion", ("exclude_gap", "exclude_above")),
            ("rating-floor", ("floor",)),
            ("first-rating", ("initial_rule", "initial_min_games", "initial_max",
                              "hypothetical_opponents", "hypothetical_opponent",
                              "half_point_bonus", "pool_months")),
            ("list", ("closing_days", "inactive_months")))


def _what_changed(rules: FideRules) -> str:
    """'; an event before March 2024 would use other …' (the rules of an earlier date)."""
    before = previous_rules(rules)
    if before is None:
        return ""
    what = [words for words, names in _CHANGES
            if any(getattr(rules, n) != getattr(before, n) for n in names)]
    if not what:
        return ""
    listed = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " and " + what[-1]
    when = f"{_MONTH_NAMES[rules.valid_from.month - 1]} {rules.valid_from.year}"
    return f"; an event before {when} would use other {listed} rules"


def rules_date(info: TournamentInfo, rating_list: RatingList = RatingList.STANDARD, *,
               on: date | None = None, today: date | None = None) -> RulesDate | None:
    """The date whose rules apply, best first: the event's own start date (details block,
    round dates, a date in its name); the caller's *on*; the source's last update (the event
    started on or before it); *today*.  None when there is none of them."""
    start, source = info.start_date, info.date_source
    if start is not None and source is not DateSource.LAST_UPDATE:
        # a start date of unnamed origin (a TRF header, a hand-made record) is the event's own
        return RulesDate(on=start, source=(source if source is not DateSource.NONE
                                           else DateSource.DETAILS).value)
    if on is not None:
        note = f"the source gives no event date: rated with the rules in force on {on}, the date given"
        if start is not None and on > start:
            note += (f"; the source was last updated on {start}, so the event started on or "
                     "before that day")
        label = rules_for(on, rating_list).label
        return RulesDate(on=on, source="given", note=f"{note} ({label})")
    if start is not None:
        rules = rules_for(start, rating_list)
        return RulesDate(on=start, source=DateSource.LAST_UPDATE.value, note=(
            f"the source gives no event date, only its last update ({start}): the event started "
            f"on or before that day and is rated with the rules in force then ({rules.label})"
            f"{_what_changed(rules)}"))
    if today is not None:
        rules = rules_for(today, rating_list)
        return RulesDate(on=today, source=DateSource.NONE.value, note=(
            f"the source gives no date: rated with the rules in force today ({rules.label})"
            f"{_what_changed(rules)}"))
    return None


def rate_tournament(t: Tournament, system: RatingSystem | str = "fide", *, k_default: int = 20,
                    k_lookup: KLookup | None = None, on: date | None = None,
                    today: date | None = None) -> TournamentRating:
    """Rate every player of *t* under *system* (the tournament view; see the module docstring).

    *system* is a :class:`RatingSystem` or a name in :mod:`rating.systems.registry`: 'fide' (the rules
    of the date :func:`rules_date` picks, on the tournament's rating list), 'elo' (built with
    K *k_default*), 'ukd' ….  *k_lookup* gives a player's K from an outside list.  One rule
    for a K nothing gives (see ``default_k_players``): a system with a default K of its own
    uses it (``EloSystem(default_k=40)``: K 40, whatever *k_default*); the others (FIDE) use
    *k_default*.  A card's, source's or list's K always comes first.  *on*
    stands in for a missing event date, *today* for any date at all (RatingError when the
    tournament has no date and neither is given); a note says so in plain words.
    """
    notes: list[str] = []
    rating_list = t.info.rating_list
    if rating_list is None:
        rating_list = RatingList.STANDARD
        notes.append("the source does not say which list: rated as standard")
    basis = rules_date(t.info, rating_list, on=on, today=today)
    if basis is None:
        raise RatingError("the tournament has no date: give the date whose rules apply")
    if basis.note:
        notes.insert(0, basis.note)
    start = basis.on
    chosen = (registry.build(system, registry.Settings(on=start, rating_list=rating_list,
                                                     k_default=k_default))
              if isinstance(system, str) else system)
    # FIDE's minimum time of a standard game (Rating Regulations 1.1–1.2): games below it are
    # not rated, with one note; a national or generic system keeps its own rules.
    timing = standard_time(t, start) if isinstance(chosen, FideSystem) else None
    too_fast = dict.fromkeys(timing.excluded, timing.reason) if timing is not None else {}
    if timing is not None and timing.note:
        notes.append(timing.note)
    ratings = {p.start_no: _own_rating(chosen, p) for p in t.players}
    rows: dict[int, list[RoundResult]] = {p.start_no: [] for p in t.players}
    for r in sorted(t.results, key=lambda r: (r.start_no, r.round)):
        rows.setdefault(r.start_no, []).append(r)
    fide_ratings = {p.start_no: p.rating for p in t.players}
    hidden = frozenset(p.start_no for p in t.players if not p.rating_known)
    # A player's age: in the year of the start (FIDE's K), in the year the event ended for a
    # national system (the DSB counts the age group so).
    year = (t.info.end_date or start).year if chosen.national else start.year
    players = tuple(_rate_player(chosen, p, rows[p.start_no], ratings, fide_ratings, year,
                                 k_lookup, k_default, hidden, too_fast)
                    for p in sorted(t.players, key=lambda p: p.start_no))
    if chosen.national and not any(ratings.values()):
        notes.append(f"no player has a national rating ({chosen.label}) in the source: every "
                     f"player is without {chosen.label} and no game is rated")
    if note := chosen.list_note(rating_list):
        notes.append(note)
    defaults = tuple(p.start_no for p in players
                     if p.k_source is KSource.DEFAULT and p.rated_games > 0)
    k_cap = chosen.rules.period_cap if isinstance(chosen, FideSystem) else None
    return TournamentRating(system=chosen.name, label=chosen.label, rules=chosen.describe(),
                            on=start, rules_label=chosen.rules_label(),
                            date_source=basis.source,
                            rating_list=rating_list, players=players, notes=tuple(notes),
                            player_notes=(*_birth_year_notes(t, year),
                                          *(n for p in players for n in _k_notes(p, k_cap))),
                            default_k_players=defaults, k_cap=k_cap,
                            default_k=chosen.player_k(PlayerFacts(rating=None), k_default)[0])


def k_cap_reason(cap: int | None) -> str:
    """Why a K was reduced, for people: 'K reduced so that K × rated games stays within 700'
    (*cap*: the rules' cap, R24 8.3.3)."""
    if cap is None:
        return "K reduced by the rating system's cap on K × rated games"
    return f"K reduced so that K × rated games stays within {cap}"


def _k_notes(pr: PlayerRating, cap: int | None) -> list[PlayerNote]:
    """Why a player's games use another K than the player's: K × n ≤ the cap (*cap*, the
    rules'), or a K the system gives some games (UKD's games against opponents without UKD);
    and what the system assumed of the player (DWZ's age group)."""
    out = [PlayerNote(start_no=pr.start_no, text=text) for text in pr.assumed]
    if pr.k_before_cap is not None:
        out.append(PlayerNote(start_no=pr.start_no, detail=f"K {pr.k_before_cap} → {pr.k}",
                              text=k_cap_reason(cap)))
    other: dict[tuple[str, int], list[int]] = {}
    for ln in pr.rounds:
        if ln.rated and ln.k is not None and pr.k is not None and ln.k != pr.k:
            other.setdefault((ln.reason, ln.k), []).append(ln.round)
    for (reason, k), rounds in other.items():
        which = f"round{'s' if len(rounds) > 1 else ''} {', '.join(map(str, rounds))}"
        out.append(PlayerNote(start_no=pr.start_no,
                              text=reason or "the source gives another K for some games",
                              detail=f"{which} at K {k} (the player's K is {pr.k})"))
    return out
