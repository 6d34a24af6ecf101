"""The calculator for the web: ``/api/calc`` (``fiderate calc --json`` for parameters named as
the calculator's fields, :mod:`reports.calc.input`) and what the calculator's page shows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rating.calculator import MAX_RATING, MIN_RATING
from rating.systems.fide_rules import FideRules
from reports.calc.input import CalcInput
from reports.calc.view import calc_json, k_categories, run_calc, worked_examples
from reports.render import fmt
from reports.settings import DEFAULT_K, K_MAX, K_MIN

__all__ = ["CALC_FORM", "api_answer", "form_context", "page_view"]

CALC_FORM = {"rating": "", "opponent": "", "result": "win", "opponent_k": "", "games": "", "k": "",
             "category": "", "system": "fide", "date": "", "list": "standard"}
"""The calculator page's fields and what they hold at first."""
_ONE_GAME = ("opponent", "result", "opponent_k")


def api_answer(params: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """``fiderate calc --json`` for the query's parameters (``rating``, ``opponent``,
    ``result``, ``game`` (repeatable), ``k``, ``category``, …); CalcError for bad input."""
    inputs = CalcInput.from_fields(params)
    return worked_examples(inputs) if inputs.table else calc_json(run_calc(inputs))


def _page_fields(form: Mapping[str, str]) -> list[tuple[str, str]]:
    """The page's form as the calculator's fields: the games box (a game a line) when it
    holds any, else the one game when its opponent is given (the result box always holds
    a result)."""
    pairs = [(k, v) for k, v in form.items() if k in CALC_FORM and k != "games"
             and k not in _ONE_GAME]
    games = [line for line in form.get("games", "").splitlines() if line.strip()]
    if games:
        return pairs + [("game", line) for line in games]
    if form.get("opponent", "").strip():
        return pairs + [(k, form.get(k, "")) for k in _ONE_GAME]
    return pairs


def page_view(form: Mapping[str, str]) -> dict[str, Any]:
    """The calculation the page shows for its form, its figures as ``fiderate calc`` prints
    them (CalcError for bad input)."""
    run = run_calc(CalcInput.from_fields(_page_fields(form)))
    a, b = run.player, run.opponent
    view: dict[str, Any] = {"title": run.title, "notes": run.notes, "one_game": b is not None,
                            "rules": run.rules}
    if b is not None:
        view["sides"] = [
            {"who": who, "rating": c.rating, "k": c.k, "expected": fmt.expected(c.games[0].expected),
             "score": fmt.points(c.games[0].score), "change": fmt.signed(c.change),
             "new_rating": c.new_rating} for who, c in (("Player", a), ("Opponent", b))]
        view["outcomes"] = [{"result": name.capitalize(), "change": fmt.signed(c.change),
                             "new_rating": c.new_rating} for name, c in run.outcomes]
        return view
    view["games"] = [
        {"opponent": g.opponent_rating or "unrated", "score": fmt.points(g.score),
         "expected": fmt.expected(g.expected),
         "change": fmt.signed(g.change) if g.rated else f"not rated: {g.reason}",
         "rated": g.rated} for g in a.games]
    view["totals"] = [("Rated games", a.rated_games), ("Score", fmt.points(a.score)),
                      ("Expected", fmt.expected(a.expected_total)), ("K", a.k),
                      ("Change", fmt.signed(a.change)),
                      ("Rounded change", fmt.signed(a.rounded_change)),
                      ("New rating", a.new_rating),
                      ("Performance", a.performance if a.performance is not None else "–")]
    return view


def form_context(rules: FideRules | None = None) -> dict[str, Any]:
    """What the page's form says besides its fields: the values' limits, the default K and
    FIDE's K categories explained (under *rules*: the calculation's; else today's)."""
    categories = k_categories(rules)
    master = next(c for c in categories if c["category"] == "master")
    return {"categories": categories,
            "limits": {"rating_min": MIN_RATING, "rating_max": MAX_RATING, "k_min": K_MIN,
                       "k_max": K_MAX, "default_k": DEFAULT_K, "k_top": master["k"],
                       "top_threshold": master["threshold"]}}
