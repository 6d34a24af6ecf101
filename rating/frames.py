"""Rating results as pandas DataFrames with exact, nullable dtypes.

:func:`to_frames` takes what :func:`rating.tournament.rate_tournament` returns (a
:class:`~rating.tournament.TournamentRating`) or what :func:`rating.period.run.run_period`
returns (a :class:`~rating.period.records.PeriodResult`), the way
:func:`importer.frames.to_frames` takes a tournament.  Each column is a field of the records,
under the field's name, with the field's exact value:

* **No floats, ever.** A tournament's changes, expectations and scores are ``Decimal`` in the
  records (K × (S − PD) unrounded; generic Elo keeps three decimals), so their columns are
  ``object`` columns of ``Decimal`` (:data:`DECIMAL`), and ``frame["change"].sum()`` is the
  exact total.  A period's figures are integer hundredths in the records (``score_h``,
  ``change_h``, ``expected_h``: exact, as the period engine computes them), so their columns
  are ``Int64`` hundredths under the same ``_h`` names.
* **Missing is <NA>, never 0**: an unrated player's ``rating`` and ``new_rating``, an
  unrated game's ``k``/``expected``/``change``, a pending ``points``.  Whole numbers are
  nullable integers (``Int16``/``Int32``/``Int64``), flags ``boolean``, text and enum values
  ``string`` (text the records hold as ``""`` stays ``""``).

Tournament frames: ``players`` (one row per player), ``rounds`` (per player and round) and
``scenarios`` (per paired, unfinished game), keyed by ``start_no``; names and the rest of
the player data are in ``importer.frames.to_frames(t)["players"]``, joined on ``start_no``.
Period frames: ``players`` (per player and list, keyed by ``key``) and ``games`` (per rated
game, from the rated player's side).

>>> import importer
>>> from rating.tournament import rate_tournament
>>> rated = rate_tournament(importer.load("fixtures/sample_open.trf"))
>>> players = to_frames(rated)["players"]
>>> players.loc[players.start_no == 3, ["rating", "change", "new_rating"]].to_dict("records")
[{'rating': 2390, 'change': Decimal('19.40'), 'new_rating': 2409}]
>>> players["change"].sum(), players["change"].dtype
(Decimal('-7.10'), dtype('O'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

import pandas as pd

from rating.period.records import PeriodGames, PeriodResult
from rating.results import PlayerRating, RoundLine, Scenario, TournamentRating

__all__ = [
    "DECIMAL",
    "PERIOD_GAME_DTYPES",
    "PERIOD_PLAYER_DTYPES",
    "PLAYER_DTYPES",
    "ROUND_DTYPES",
    "SCENARIO_DTYPES",
    "to_frames",
]

DECIMAL = "object"
"""The dtype of exact Decimal columns: each value a ``Decimal`` or ``<NA>``."""

PLAYER_DTYPES: dict[str, str] = {
    "start_no": "Int32", "rating": "Int64", "k": "Int32", "k_source": "string",
    "k_before_cap": "Int32", "rated_games": "Int32", "score": DECIMAL, "points": DECIMAL,
    "expected": DECIMAL, "change": DECIMAL, "new_rating": "Int64", "performance": "Int64",
    "initial_rating": "Int64", "initial_published": "boolean", "published_change": DECIMAL,
}
"""Tournament ``players``: :class:`~rating.tournament.PlayerRating`'s fields (``initial_*``:
the first rating's value and whether it is published, <NA> without one)."""
ROUND_DTYPES: dict[str, str] = {
    "start_no": "Int32", "round": "Int16", "status": "string", "opponent_no": "Int32",
    "opponent_rating": "Int64", "colour": "string", "points": DECIMAL, "rated": "boolean",
    "reason": "string", "k": "Int32", "expected": DECIMAL, "change": DECIMAL,
    "cumulative": DECIMAL, "capped": "boolean", "published_change": DECIMAL,
}
"""Tournament ``rounds``: :class:`~rating.tournament.RoundLine`'s fields."""
SCENARIO_DTYPES: dict[str, str] = {
    "start_no": "Int32", "round": "Int16", "opponent_no": "Int32", "opponent_rating": "Int64",
    "k": "Int32", "expected": DECIMAL, "win": DECIMAL, "draw": DECIMAL, "loss": DECIMAL,
    "total_if_win": DECIMAL, "total_if_draw": DECIMAL, "total_if_loss": DECIMAL,
    "new_if_win": "Int64", "new_if_draw": "Int64", "new_if_loss": "Int64",
    "rated": "boolean", "reason": "string",
}
"""Tournament ``scenarios``: :class:`~rating.tournament.Scenario`'s fields."""
PERIOD_PLAYER_DTYPES: dict[str, str] = {
    "key": "string", "fide_id": "string", "name": "string", "federation": "string",
    "birth_year": "Int32", "list": "string", "old_rating": "Int64", "matched_by": "string",
    "rating_from": "string", "where": "string", "k": "string", "games": "Int32",
    "score_h": "Int64", "change_h": "Int64", "rounded_change": "Int32", "new_rating": "Int64",
    "status": "string", "pool_games": "Int32", "pool_opponents_sum": "Int64",
    "pool_score_h": "Int64", "initial_rating": "Int64",
}
"""Period ``players``: :class:`~rating.period.records.PeriodPlayer`'s fields (``k`` as
printed: '20', or '20/15' when rule versions differ)."""
PERIOD_GAME_DTYPES: dict[str, str] = {
    "tournament": "string", "round": "Int16", "key": "string", "fide_id": "string",
    "name": "string", "list": "string", "own_rating": "Int64", "opponent": "string",
    "opponent_name": "string", "opponent_rating": "Int64", "capped": "boolean",
    "score_h": "Int64", "expected_h": "Int64", "k": "Int32", "change_h": "Int64",
}
"""Period ``games``: :class:`~rating.period.records.PeriodGame`'s fields, in
:attr:`~rating.period.records.PeriodGames.FIELDS` order."""


def _plain(value: object) -> object:
    """An enum as its value; None stays None (<NA> in the frame)."""
    return value.value if isinstance(value, Enum) else value


def _frame(columns: Mapping[str, Sequence[Any]], dtypes: dict[str, str]) -> pd.DataFrame:

    data: dict[str, pd.Series] = {}
    for name, dtype in dtypes.items():
        values = columns[name]
        if dtype == DECIMAL:
            data[name] = pd.Series([pd.NA if v is None else v for v in values], dtype=object)
        else:
            data[name] = pd.Series([_plain(v) for v in values], dtype=dtype)
    return pd.DataFrame(data, columns=list(dtypes))


def _columns(rows: Sequence[Any], dtypes: dict[str, str],
             computed: dict[str, Callable[[Any], object]] | None = None) -> dict[str, list[Any]]:
    computed = computed or {}
    return {name: [computed[name](r) if name in computed else getattr(r, name) for r in rows]
            for name in dtypes}


def _tournament_frames(result: TournamentRating) -> dict[str, pd.DataFrame]:
    players = list(result.players)
    lines = [(p.start_no, line) for p in players for line in p.rounds]
    scenarios = [(p.start_no, s) for p in players for s in p.scenarios]

    def initial(attr: str) -> Callable[[PlayerRating], object]:
        return lambda p: getattr(p.initial, attr) if p.initial is not None else None

    def own(rows: Sequence[tuple[int, RoundLine | Scenario]], dtypes: dict[str, str]
            ) -> dict[str, list[Any]]:
        cols = _columns([r for _, r in rows], {n: d for n, d in dtypes.items() if n != "start_no"})
        return {"start_no": [no for no, _ in rows], **cols}

    return {
        "players": _frame(_columns(players, PLAYER_DTYPES, {
            "initial_rating": initial("value"), "initial_published": initial("published")}),
            PLAYER_DTYPES),
        "rounds": _frame(own(lines, ROUND_DTYPES), ROUND_DTYPES),
        "scenarios": _frame(own(scenarios, SCENARIO_DTYPES), SCENARIO_DTYPES),
    }


def _period_frames(result: PeriodResult) -> dict[str, pd.DataFrame]:
    games: PeriodGames = result.games
    return {
        "players": _frame(_columns(result.players, PERIOD_PLAYER_DTYPES), PERIOD_PLAYER_DTYPES),
        "games": _frame({name: games.column(name) for name in PERIOD_GAME_DTYPES},
                        PERIOD_GAME_DTYPES),
    }


def to_frames(result: TournamentRating | PeriodResult) -> dict[str, pd.DataFrame]:
    """A tournament's ``{"players", "rounds", "scenarios"}`` or a period's ``{"players",
    "games"}``, with the dtypes declared here (see the module's docstring).

    >>> from datetime import date
    >>> from rating.period.run import run_period
    >>> import importer
    >>> month = run_period([importer.load("fixtures/period/elite_nov2025.trf")],
    ...                    period=date(2025, 12, 1), today=date(2025, 12, 5))
    >>> games = to_frames(month)["games"]
    >>> len(games), games["change_h"].dtype, int(games["change_h"].sum())
    (10, Int64Dtype(), -450)
    """
    if isinstance(result, TournamentRating):
        return _tournament_frames(result)
    if isinstance(result, PeriodResult):
        return _period_frames(result)
    raise TypeError(f"to_frames takes a TournamentRating or a PeriodResult, not "
                    f"{type(result).__name__}")

