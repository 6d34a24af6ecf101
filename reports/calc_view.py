"""What ``fiderate calc`` prints: the calculation as text or as one JSON object."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import click

from importer.model import RatingList
from rating import fide
from rating.base import EloSystem, FideSystem, RatingSystem
from rating.calculator import Calculation, calculate, check_k, check_rating
from rating.errors import RatingError
from rating.rules import FideRules, rules_for
from reports import fmt

__all__ = ["run_calc"]

OUTCOMES = (("win", Decimal(1)), ("draw", Decimal("0.5")), ("loss", Decimal(0)))
DEFAULT_K = 20


def _player_k(rules: FideRules, rating: int, on: dt.date, opts: dict[str, Any],
              notes: list[str]) -> int:
    """K from --k or --category, else the one K rule (:func:`rating.fide.player_k`) on the
    facts given; 20 with a note when nothing decides it."""
    if opts["k"] is not None:
        return check_k(opts["k"])
    if opts["category"]:
        return fide.k_for_category(fide.Category(opts["category"]), rules)
    k, source = fide.player_k(rules, fide.PlayerFacts(
        rating=rating, games_played=opts["games_played"], birth_year=opts["birth_year"],
        reached_2400=opts["reached_2400"], year=on.year), DEFAULT_K)
    if source is fide.KSource.DEFAULT:
        hint = (f" (a player whose rating reached {rules.top_threshold} has K {rules.k_top}: "
                "--category master)") if rules.reaches_top(rating) else ""
        notes.append(f"K {DEFAULT_K} assumed: give --k or --category for another{hint}")
    else:
        notes.append(f"K category: {_category(rules, rating, on, opts).value}")
    return k


def _category(rules: FideRules, rating: int, on: dt.date, opts: dict[str, Any]) -> fide.Category:
    return fide.category_of(rules, rating=rating, games_played=opts["games_played"],
                            birth_year=opts["birth_year"], reached_2400=opts["reached_2400"],
                            year=on.year)


def _game_json(g: Any) -> dict[str, Any]:
    return {"opponent_rating": g.opponent_rating, "score": float(g.score),
            "expected": None if g.expected is None else float(g.expected),
            "change": None if g.change is None else float(fmt.change(g.change)),
            "rated": g.rated, "reason": g.reason}


def run_calc(*, games: list[tuple[int | None, Decimal]], result: Decimal | None,
             **opts: Any) -> dict[str, Any] | str:
    """Run the calculator for the options of ``fiderate calc``; text or a JSON-ready dict."""
    on: dt.date = opts["on"]
    rating_list = RatingList(opts["rating_list"])
    rules = rules_for(on, rating_list)
    system: RatingSystem = (FideSystem(rules) if opts["system"] == "fide"
                            else EloSystem(cap=opts["elo_cap"]))
    period_rules = rules if opts["system"] == "fide" else None
    rating = opts["rating"]
    if rating is None:
        if not opts["table"]:
            raise click.UsageError("--rating is required (the player's rating)")
        rating = 1500
    try:
        check_rating(rating)
        notes: list[str] = []
        k = _player_k(rules, rating, on, opts, notes)
        if opts["table"]:
            table = _table(system, rules, rating, k)
            return table if opts["as_json"] else _table_text(table)
        if result is not None:
            games = [(opts["opponent"], result)]
        if not games:
            raise click.UsageError("give --opponent and --result, or one --game per game, "
                                   "or --table")
        calc_a = calculate(system, rating, k, games, rules=period_rules)
    except RatingError as exc:
        raise click.BadParameter(str(exc)) from None
    notes += calc_a.notes
    head = {"system": system.name, "rating": rating, "k": calc_a.k, "date": on.isoformat(),
            "list": rating_list.value}
    extra: dict[str, Any] = {}
    opp_calc: Calculation | None = None
    outcomes: list[tuple[str, Calculation]] = []
    if result is not None:
        opp = opts["opponent"]
        opp_k = opts["opponent_k"]
        if opp_k is None:
            opp_k = rules.k_top if rules.reaches_top(opp) else DEFAULT_K
            notes.append(f"opponent K {opp_k} assumed (--opponent-k)")
        try:
            opp_calc = calculate(system, opp, check_k(opp_k, "--opponent-k"),
                                 [(rating, 1 - result)], rules=period_rules)
        except RatingError as exc:
            raise click.BadParameter(str(exc)) from None
        outcomes = [(name, calculate(system, rating, k, [(opp, s)], rules=period_rules))
                    for name, s in OUTCOMES]
        extra = {
            "outcomes": {name: float(fmt.change(c.change)) for name, c in outcomes},
            "opponent": {"rating": opp, "k": opp_calc.k,
                         "expected": _num(opp_calc.games[0].expected),
                         "change": float(fmt.change(opp_calc.change)),
                         "new_rating": opp_calc.new_rating},
        }
    if opts["as_json"]:
        return {**head, "games": [_game_json(g) for g in calc_a.games],
                "score": float(calc_a.score), "expected_total": float(calc_a.expected_total),
                "change": float(fmt.change(calc_a.change)),
                "rounded_change": calc_a.rounded_change, "new_rating": calc_a.new_rating,
                "performance": calc_a.performance, **extra, "notes": notes}
    title = (f"{system.label} rating calculation — {rating_list.value}, "
             f"{'rules ' + rules.name if opts['system'] == 'fide' else 'logistic formula'}, "
             f"{on.isoformat()}")
    lines = [title, ""]
    if opp_calc is not None:
        lines += _single_text(calc_a, opp_calc, outcomes, rating)
    else:
        lines += _games_text(calc_a)
    lines += [f"note: {n}" for n in notes]
    return "\n".join(lines)


def _num(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def _single_text(a: Calculation, b: Calculation, outcomes: list[tuple[str, Calculation]],
                 rating: int) -> list[str]:
    ga, gb = a.games[0], b.games[0]
    rows: list[Sequence[str]] = [("", "Rating", "K", "Expected", "Score", "Change", "New rating")]
    for who, c, g in (("Player", a, ga), ("Opponent", b, gb)):
        rows.append((who, str(c.rating), str(c.k), fmt.expected(g.expected),
                     fmt.points(g.score), fmt.signed(c.change) if g.rated else g.reason,
                     str(c.new_rating)))
    lines = fmt.text_table(rows)
    lines += ["", "Player's change by result:"]
    for name, c in outcomes:
        lines.append(f"  {name:<5} {fmt.signed(c.change):>8}  → {c.new_rating}")
    return [*lines, ""]


def _games_text(c: Calculation) -> list[str]:
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
        f"K               {c.k}",
        f"Change          {fmt.signed(c.change)}",
        f"Rounded change  {fmt.signed(c.rounded_change)}",
        f"New rating      {c.new_rating}",
        f"Performance     {c.performance if c.performance is not None else '-'}",
        "",
    ]
    return lines


def _table(system: RatingSystem, rules: FideRules, rating: int, k: int) -> dict[str, Any]:
    """The worked examples (exact Decimals): a win, draw and loss against opponents 300 below,
    equal and 300 above, and the equal game in each FIDE category."""
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


def _table_text(table: dict[str, Any]) -> str:
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
