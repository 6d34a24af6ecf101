"""What the calculator works out for its inputs, and how it is told: the command line's
text, one JSON object (``fiderate calc --json``, ``/api/calc``), and the figures the
calculator's page shows (:mod:`reports.web.pages`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from importer.model import RatingList
from rating.calculator import Calculation, calculate
from rating.results import GameRating
from rating.systems import fide, registry
from rating.systems.base import EloSystem, FideSystem, RatingSystem
from rating.systems.fide_rules import FideRules, rules_for
from reports.calc.input import CalcInput
from reports.render import fmt
from reports.settings import DEFAULT_K

__all__ = ["OUTCOMES", "CalcRun", "calc_json", "calc_text", "k_categories", "run_calc",
           "table_text", "worked_examples"]

OUTCOMES = (("win", Decimal(1)), ("draw", Decimal("0.5")), ("loss", Decimal(0)))
TABLE_RATING = 1500
"""The worked examples' rating when none is given."""


@dataclass(frozen=True, slots=True)
class CalcRun:
    """One calculation: the player's games, and for one game the opponent's side and the
    player's change for each result."""

    system: RatingSystem
    rules: FideRules
    on: dt.date
    rating_list: RatingList
    player: Calculation
    opponent: Calculation | None
    outcomes: tuple[tuple[str, Calculation], ...]
    notes: tuple[str, ...]

    @property
    def title(self) -> str:
        """'FIDE rating calculation — standard, rules FIDE 2025-10 (…), 2026-11-01'."""
        label = self.system.rules_label()
        how = ("rules " + self.rules.name if isinstance(self.system, FideSystem)
               else self.system.describe() if label.startswith(f"{self.system.label}:")
               else "rules " + label)
        return (f"{self.system.label} rating calculation — {self.rating_list.value}, {how}, "
                f"{self.on.isoformat()}")


def _today() -> dt.date:
    return dt.datetime.now().astimezone().date()  # the user's today


def _setup(inputs: CalcInput) -> tuple[dt.date, FideRules, RatingSystem]:
    on = inputs.on or _today()
    rules = rules_for(on, inputs.rating_list)
    system: RatingSystem
    if inputs.system == "fide":
        system = FideSystem(rules)
    elif inputs.system == "elo":
        system = EloSystem(cap=inputs.elo_cap)
    else:  # a national system, as registered, with its rules of *on*
        system = registry.build(inputs.system, registry.Settings(
            on=on, rating_list=inputs.rating_list, k_default=DEFAULT_K))
    return on, rules, system


def _facts(rating: int, on: dt.date, inputs: CalcInput) -> fide.PlayerFacts:
    """What the inputs tell of the player, for the system's K or coefficient."""
    return fide.PlayerFacts(rating=rating, games_played=inputs.games_played,
                            birth_year=inputs.birth_year, reached_2400=inputs.reached_2400,
                            year=on.year, evaluations=inputs.index)


def _national_k(system: RatingSystem, rating: int, on: dt.date, inputs: CalcInput,
                notes: list[str]) -> int:
    """A national system's K (or coefficient before the event): as given, else its own
    rule on the facts given."""
    if inputs.k is not None:
        return inputs.k
    k, source = system.player_k(_facts(rating, on, inputs), DEFAULT_K)
    if source is fide.KSource.DEFAULT:
        notes.append(f"K {k} assumed: give K, or what {system.label} decides it by")
    return k


def _player_k(rules: FideRules, rating: int, on: dt.date, inputs: CalcInput,
              notes: list[str]) -> int:
    """K as given, or of the category given, else the one K rule (:func:`rating.systems.fide.player_k`)
    on the facts given; 20 with a note when nothing decides it."""
    if inputs.k is not None:
        return inputs.k
    if inputs.category is not None:
        return fide.k_for_category(inputs.category, rules)
    k, source = fide.player_k(rules, _facts(rating, on, inputs), DEFAULT_K)
    if source is fide.KSource.DEFAULT:
        hint = (f" (a player whose rating reached {rules.top_threshold} has K {rules.k_top}: "
                "the master category)") if rules.reaches_top(rating) else ""
        notes.append(f"K {DEFAULT_K} assumed: give K or the player's category for another{hint}")
    else:
        category = fide.category_of(rules, rating=rating, games_played=inputs.games_played,
                                    birth_year=inputs.birth_year,
                                    reached_2400=inputs.reached_2400, year=on.year)
        notes.append(f"K category: {category.value}")
    return k


def run_calc(inputs: CalcInput) -> CalcRun:
    """The calculation for *inputs* (not the worked examples: :func:`worked_examples`)."""
    on, rules, system = _setup(inputs)
    period_rules = rules if inputs.system == "fide" else None
    rating = inputs.rating if inputs.rating is not None else TABLE_RATING
    notes: list[str] = []
    national = system.national
    k = (_national_k(system, rating, on, inputs, notes) if national
         else _player_k(rules, rating, on, inputs, notes))
    # the system decides its coefficient from the facts, unless a K is given
    facts = _facts(rating, on, inputs) if national and inputs.k is None else None
    opp, result = inputs.opponent, inputs.result
    games = [(opp, result)] if opp is not None and result is not None else list(inputs.games)
    player = calculate(system, rating, k, games, rules=period_rules, facts=facts)
    notes += player.notes
    if national:  # what the system assumed (an age group not given), and its games' words
        notes += dict.fromkeys([*system.assumptions(facts),
                                *(g.reason for g in player.games if g.rated and g.reason)])
    opponent: Calculation | None = None
    outcomes: tuple[tuple[str, Calculation], ...] = ()
    if opp is not None and result is not None:
        opp_k, opp_facts = inputs.opponent_k, None
        if opp_k is None and national:  # the system's own rule on the opponent's rating
            opp_facts = fide.PlayerFacts(rating=opp, year=on.year)
            opp_k = system.player_k(opp_facts, DEFAULT_K)[0]
        elif opp_k is None:
            opp_k = rules.k_top if rules.reaches_top(opp) else DEFAULT_K
            notes.append(f"opponent K {opp_k} assumed: give the opponent's K for another")
        opponent = calculate(system, opp, opp_k, [(rating, 1 - result)], rules=period_rules,
                             facts=opp_facts)
        outcomes = tuple((name, calculate(system, rating, k, [(opp, s)], rules=period_rules,
                                          facts=facts))
                         for name, s in OUTCOMES)
    return CalcRun(system=system, rules=rules, on=on, rating_list=inputs.rating_list,
                   player=player, opponent=opponent, outcomes=outcomes, notes=tuple(notes))


def _num(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def _game_json(g: GameRating) -> dict[str, Any]:
    return {"opponent_rating": g.opponent_rating, "score": float(g.score),
            "expected": _num(g.expected),
            "change": None if g.change is None else float(fmt.change(g.change)),
            "rated": g.rated, "reason": g.reason}


def calc_json(run: CalcRun) -> dict[str, Any]:
    """The calculation as one JSON-ready object (``fiderate calc --json``)."""
    a = run.player
    extra: dict[str, Any] = {}
    if run.opponent is not None:
        b = run.opponent
        extra = {
            "outcomes": {name: float(fmt.change(c.change)) for name, c in run.outcomes},
            "opponent": {"rating": b.rating, "k": b.k, "expected": _num(b.games[0].expected),
                         "change": float(fmt.change(b.change)), "new_rating": b.new_rating},
        }
    return {"system": run.system.name, "rating": a.rating, "k": a.k,
            "coefficient": a.k, "date": run.on.isoformat(),
            "list": run.rating_list.value,
            "games": [_game_json(g) for g in a.games], "score": float(a.score),
            "expected": float(a.expected_total), "expected_total": float(a.expected_total),
            "change": float(fmt.change(a.change)),
            "rounded_change": a.rounded_change, "new_rating": a.new_rating,
            "performance": a.performance, **extra, "notes": list(run.notes)}


def calc_text(run: CalcRun) -> str:
    """The calculation as ``fiderate calc`` prints it."""
    lines = [run.title, ""]
    k = run.system.coefficient
    if run.opponent is not None:
        lines += _single_text(run.player, run.opponent, run.outcomes, k)
    else:
        lines += _games_text(run.player, k)
    lines += [f"note: {n}" for n in run.notes]
    return "\n".join(lines)


def k_categories(rules: FideRules | None = None) -> list[dict[str, Any]]:
    """FIDE's K categories under *rules* (default: today's, standard), each its name, its K
    and what it means in words."""
    rules = rules or rules_for(_today())
    junior = (f"up to the end of the year the player turns 18, while rated below "
              f"{rules.junior_below}" if rules.k_junior is not None
              else "no junior rule on this date: K as for an established player")
    games = f" and {rules.new_player_games} rated games played" if rules.top_needs_games else ""
    means = {
        fide.Category.NEW: f"fewer than {rules.new_player_games} rated games played",
        fide.Category.JUNIOR: junior,
        fide.Category.ESTABLISHED: "every other player",
        fide.Category.MASTER: f"the published rating has reached {rules.top_threshold}{games} "
                              "(K stays so if it falls again)",
    }
    return [{"category": c.value, "k": fide.k_for_category(c, rules), "means": means[c],
             "threshold": rules.top_threshold} for c in fide.Category]


def _single_text(a: Calculation, b: Calculation,
                 outcomes: Sequence[tuple[str, Calculation]], k: str) -> list[str]:
    ga, gb = a.games[0], b.games[0]
    rows: list[Sequence[str]] = [("", "Rating", k, "Expected", "Score", "Change", "New rating")]
    for who, c, g in (("Player", a, ga), ("Opponent", b, gb)):
        rows.append((who, str(c.rating), str(c.k), fmt.expected(g.expected),
                     fmt.points(g.score), fmt.signed(c.change) if g.rated else g.reason,
                     str(c.new_rating)))
    lines = fmt.text_table(rows)
    lines += ["", "Player's change by result:"]
    for name, c in outcomes:
        lines.append(f"  {name:<5} {fmt.signed(c.change):>8}  → {c.new_rating}")
    return [*lines, ""]


def _games_text(c: Calculation, k: str) -> list[str]:
    rows: list[Sequence[str]] = [("#", "Opponent", "Score", "Expected", "Change")]
    for i, g in enumerate(c.games, start=1):
        rows.append((str(i), str(g.opponent_rating or "unrated"), fmt.points(g.score),
                     fmt.expected(g.expected),
                     fmt.signed(g.change) if g.rated else f"not rated: {g.reason}"))
    lines = fmt.text_table(rows)
    lines += [
        "",
        f"Rated games     {c.rated_games}",
        f"Score           {fmt.points(c.score)}",
        f"Expected        {c.expected_total}",
        f"{k:<16}{c.k}",
        f"Change          {fmt.signed(c.change)}",
        f"Rounded change  {fmt.signed(c.rounded_change)}",
        f"New rating      {c.new_rating}",
        f"Performance     {c.performance if c.performance is not None else '-'}",
        "",
    ]
    return lines


def worked_examples(inputs: CalcInput) -> dict[str, Any]:
    """The worked examples (exact Decimals): a win, draw and loss against opponents 300 below,
    equal and 300 above, and the equal game in each FIDE category."""
    on, rules, system = _setup(inputs)
    rating = inputs.rating if inputs.rating is not None else TABLE_RATING
    k = _player_k(rules, rating, on, inputs, [])
    by_difference = []
    for diff in (-300, 0, 300):
        opp = rating + diff
        calcs = [calculate(system, rating, k, [(opp, s)]) for _, s in OUTCOMES]
        by_difference.append({"opponent": opp, "difference": diff,
                              "expected": calcs[0].games[0].expected,
                              **{name: c.change for (name, _), c in zip(OUTCOMES, calcs,
                                                                        strict=True)}})
    by_category = []
    for category in fide.Category:
        kc = fide.k_for_category(category, rules)
        by_category.append({"category": category.value, "k": kc, **{
            name: calculate(system, rating, kc, [(rating, s)]).change for name, s in OUTCOMES}})
    return {"system": system.name, "rating": rating, "k": k, "by_difference": by_difference,
            "by_category": by_category}


def table_text(table: dict[str, Any]) -> str:
    """The worked examples as ``fiderate calc --table`` prints them."""
    lines = [f"What a game brings a player rated {table['rating']} with K {table['k']} "
             f"({table['system'].upper() if table['system'] == 'fide' else 'Elo'}):", ""]
    rows: list[Sequence[str]] = [("Opponent", "Difference", "Expected", "Win", "Draw", "Loss")]
    for r in table["by_difference"]:
        rows.append((str(r["opponent"]), f"{r['difference']:+d}" if r["difference"] else "0",
                     fmt.expected(r["expected"]), *(fmt.signed(r[name]) for name, _ in OUTCOMES)))
    lines += fmt.text_table(rows)
    rating = table["rating"]
    lines += ["", f"The same game (equal ratings, {rating} v {rating}) in each FIDE category:", ""]
    rows = [("Category", "K", "Win", "Draw", "Loss")]
    for r in table["by_category"]:
        rows.append((r["category"], str(r["k"]), *(fmt.signed(r[name]) for name, _ in OUTCOMES)))
    lines += fmt.text_table(rows)
    return "\n".join(lines)
