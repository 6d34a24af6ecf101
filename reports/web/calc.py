"""The calculator for the web: ``fiderate calc --json`` for parameters named like its
options, shared by the calculator's page (:mod:`reports.web.pages`) and the JSON API
(:mod:`reports.web.api`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reports.cmd_calc import calc, calc_output
from reports.web.problems import Problem, refuse_unknown

__all__ = ["CALC_OPTIONS", "calc_json"]

CALC_OPTIONS = {"rating": "--rating", "opponent": "--opponent", "result": "--result",
                "game": "--game", "k": "--k", "category": "--category",
                "games_played": "--games-played", "birth_year": "--birth-year",
                "reached_2400": "--reached-2400", "opponent_k": "--opponent-k",
                "system": "--system", "elo_cap": "--elo-cap", "date": "--date", "list": "--list",
                "table": "--table"}
"""The parameters, and the option of ``fiderate calc`` each one gives."""
_FLAGS = {"reached_2400": True, "table": True}
_YES, _NO = ("", "1", "true", "yes", "on"), ("0", "false", "no", "off")


def calc_json(params: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """``fiderate calc --json`` for query parameters named like its options (``rating``,
    ``opponent``, ``result``, ``game`` (repeatable), ``k``, ``category``, …)."""
    pairs = list(params)
    refuse_unknown((name for name, _ in pairs), CALC_OPTIONS)
    argv = ["--json"]
    for name, value in pairs:
        option = CALC_OPTIONS[name]
        if name not in _FLAGS:
            argv.append(f"{option}={value}")
        elif value.strip().lower() in _YES:
            argv.append(option)
        elif value.strip().lower() not in _NO:
            raise Problem(f"{name}={value!r}: expected true or false")
    out = calc_output(calc.make_context("calc", argv).params)
    if not isinstance(out, dict):
        raise TypeError("the calculator gave text where JSON was asked for")
    return out
