"""The tournament model as pandas DataFrames with declared nullable dtypes.

Ratings are ``Int64`` with ``<NA>`` for unrated (never 0); ids are strings.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

import pandas as pd

from importer.formats.normalized import GAME_COLUMNS, PLAYER_COLUMNS, RESULT_COLUMNS

if TYPE_CHECKING:
    from importer.model import Tournament

__all__ = ["GAME_DTYPES", "PLAYER_DTYPES", "RESULT_DTYPES", "to_frames"]

PLAYER_DTYPES: dict[str, str] = {
    "start_no": "Int32", "name": "string", "title": "string", "federation": "string",
    "fide_id": "string", "rating": "Int64", "national_rating": "Int64", "birth_year": "Int32",
    "sex": "string", "club": "string", "points": "Float64", "rank": "Int32",
    "national_id": "string", "team": "string", "k": "Int32", "rating_change": "Float64",
    "category": "string",
}
RESULT_DTYPES: dict[str, str] = {
    "start_no": "Int32", "round": "Int16", "opponent_no": "Int32", "colour": "string",
    "points": "Float64", "status": "string", "k": "Int32", "rating_change": "Float64",
    "requested": "boolean",
}
GAME_DTYPES: dict[str, str] = {
    "round": "Int16", "board": "Int32", "white_no": "Int32", "black_no": "Int32",
    "result": "string",
}


def _frame(records: list[dict[str, object]], columns: tuple[str, ...],
           dtypes: dict[str, str]) -> pd.DataFrame:

    df = pd.DataFrame.from_records(records, columns=list(columns))
    for col, dtype in dtypes.items():
        if dtype == "Float64":  # Decimal objects → numbers first
            df[col] = pd.to_numeric(df[col].astype(object), errors="coerce")
    return df.astype(dtypes)


def to_frames(t: Tournament) -> dict[str, pd.DataFrame]:
    """``{"players": …, "results": …, "games": …}`` with the declared dtypes."""
    def plain(rec: object) -> dict[str, object]:
        row = asdict(rec)  # type: ignore[call-overload]
        return {k: (v.value if hasattr(v, "value") else v) for k, v in row.items()}

    return {
        "players": _frame([plain(p) for p in t.players], PLAYER_COLUMNS, PLAYER_DTYPES),
        "results": _frame([plain(r) for r in t.results], RESULT_COLUMNS, RESULT_DTYPES),
        "games": _frame([plain(g) for g in t.games], GAME_COLUMNS, GAME_DTYPES),
    }
