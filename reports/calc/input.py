"""The calculator's inputs as people give them (command-line options, the calculator's page,
``/api/calc``), each checked once here, with the message in words for people.

Fields are named as the API's parameters (``rating``, ``opponent``, ``result``, ``game``,
``k``, …); an error names its field, so the command line can put its option before the
message and the API can add the field and a machine code, while the words stay the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TypeVar

from importer.model import RatingList
from rating.calculator import check_rating
from rating.errors import RatingError
from rating.systems import registry
from rating.systems.fide import Category
from reports.settings import SettingError, parse_date, parse_k

__all__ = ["FIELDS", "CalcError", "CalcInput", "Game", "parse_result"]

FIELDS = {
    "rating": "the player's rating", "opponent": "the opponent's rating",
    "result": "the result", "game": "the games", "k": "K", "category": "the category",
    "games_played": "the number of rated games played", "birth_year": "the birth year",
    "reached_2400": "whether the rating has reached 2400", "opponent_k": "the opponent's K",
    "system": "the rating system", "elo_cap": "the Elo cap", "index": "the DWZ index",
    "date": "the date", "list": "the rating list", "table": "the worked examples",
}
"""Each field, and its name in words."""
_FLAGS = ("reached_2400", "table")
_YES, _NO = ("", "1", "true", "yes", "on"), ("0", "false", "no", "off")
_RESULTS = {
    "win": "1", "w": "1", "1": "1", "1.0": "1", "+": "1",
    "draw": "0.5", "d": "0.5", "0.5": "0.5", ".5": "0.5", "½": "0.5", "=": "0.5", "1/2": "0.5",
    "loss": "0", "l": "0", "0": "0", "0.0": "0", "-": "0",
}
_UNRATED = ("0", "unrated", "-")

T = TypeVar("T")
Game = tuple[int | None, Decimal]
"""A game: the opponent's rating (None: unrated) and the player's score."""


class CalcError(SettingError):
    """A calculator input that cannot be used: the message in words, the field it is about
    (a key of :data:`FIELDS`, or the unknown name given), any other field it names, and a
    machine code: ``bad-value``, ``missing``, ``conflict`` or ``unknown-field``."""

    def __init__(self, message: str, field: str, code: str = "bad-value",
                 *others: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.fields = (field, *others)


def parse_result(text: str, field: str = "result") -> Decimal:
    """'win', 'w', '1' → 1; 'draw', 'd', '½', '=', '0.5' → 0.5; 'loss', 'l', '0' → 0."""
    try:
        return Decimal(_RESULTS[text.strip().lower()])
    except KeyError:
        raise CalcError(f"the result {text.strip()!r}: expected win, draw or loss "
                        "(or 1, ½, 0)", field) from None


def _rating(text: str, field: str, label: str | None = None) -> int:
    label = label or FIELDS[field]
    try:
        value = int(text.strip())
    except ValueError:
        raise CalcError(f"{label} {text.strip()!r}: expected a rating, a whole number",
                        field) from None
    try:
        return check_rating(value, label)
    except RatingError as exc:
        raise CalcError(str(exc), field) from None


def _game(number: int, text: str) -> Game:
    """One game as 'OPPONENT:RESULT' or 'OPPONENT RESULT' ('1900:1', 'unrated ½')."""
    parts = text.replace(":", " ").split()
    if len(parts) != 2:
        raise CalcError(f"game {number} ({text.strip()!r}): expected the opponent's rating "
                        "(or unrated) and the result, such as 1900 1 or unrated ½", "game")
    opponent, result = parts
    score = parse_result(result, "game")
    if opponent.lower() in _UNRATED:
        return None, score
    return _rating(opponent, "game", f"game {number}: the opponent's rating"), score


def _whole(text: str, field: str, least: int, most: int | None = None) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        value = least - 1
    if value < least or (most is not None and value > most):
        upto = f" to {most}" if most is not None else " or more"
        raise CalcError(f"{FIELDS[field]} {text.strip()!r}: expected a whole number from "
                        f"{least}{upto}", field)
    return value


def _choice(text: str, field: str, choices: Iterable[str]) -> str:
    names = list(choices)
    value = text.strip().lower()
    if value not in names:
        raise CalcError(f"{FIELDS[field]} {text.strip()!r}: choose {', '.join(names[:-1])} or "
                        f"{names[-1]}", field)
    return value


def _flag(text: str, field: str) -> bool:
    value = text.strip().lower()
    if value not in _YES + _NO:
        raise CalcError(f"{text.strip()!r} for {FIELDS[field]}: expected yes or no", field)
    return value in _YES


def _k(text: str, field: str) -> int:
    try:
        return parse_k(text, FIELDS[field])
    except SettingError as exc:
        raise CalcError(str(exc), field) from None


def _date(text: str, field: str) -> date:
    try:
        return parse_date(text)
    except SettingError as exc:
        raise CalcError(str(exc), field) from None


@dataclass(frozen=True, slots=True, kw_only=True)
class CalcInput:
    """What the calculator works with, checked."""

    rating: int | None = None
    """The player's rating (None: only with ``table``, which then uses 1500)."""
    opponent: int | None = None
    """One game's opponent (shown with their change too), with ``result``."""
    result: Decimal | None = None
    games: tuple[Game, ...] = ()
    k: int | None = None
    category: Category | None = None
    games_played: int | None = None
    birth_year: int | None = None
    reached_2400: bool = False
    opponent_k: int | None = None
    system: str = "fide"
    """A registered rating system's name (:mod:`rating.systems.registry`)."""
    elo_cap: int | None = None
    index: int | None = None
    """How many times the national list has rated the player before (DWZ's index)."""
    on: date | None = None
    """The date whose FIDE rules apply (None: today)."""
    rating_list: RatingList = RatingList.STANDARD
    table: bool = False
    """The worked examples instead of a calculation."""

    @classmethod
    def from_fields(cls, pairs: Iterable[tuple[str, str]]) -> CalcInput:
        """The inputs of a form, a query or the command line's options, as (field, text)
        pairs (``game`` repeated; an empty field is not given, but a flag given empty is
        yes); CalcError for a bad, missing or conflicting one."""
        given: dict[str, str] = {}
        games: list[str] = []
        for name, text in pairs:
            if name not in FIELDS:
                raise CalcError(f"unknown field {name!r}: use {', '.join(FIELDS)}", name,
                                "unknown-field")
            if name == "game":
                games += [text] if text.strip() else []
            elif text.strip() or name in _FLAGS:
                given[name] = text
        inputs = cls._read(given, tuple(_game(i, g) for i, g in enumerate(games, start=1)))
        inputs._refuse_conflicts()
        return inputs

    @classmethod
    def _read(cls, given: dict[str, str], games: tuple[Game, ...]) -> CalcInput:
        def read(field: str, parse: Callable[[str, str], T]) -> T | None:
            return parse(given[field], field) if field in given else None

        return cls(
            rating=read("rating", _rating), opponent=read("opponent", _rating),
            result=read("result", parse_result), games=games, k=read("k", _k),
            category=read("category", lambda t, f: Category(_choice(t, f, Category))),
            games_played=read("games_played", lambda t, f: _whole(t, f, 0)),
            birth_year=read("birth_year", lambda t, f: _whole(t, f, 1000, 9999)),
            reached_2400=bool(read("reached_2400", _flag)), opponent_k=read("opponent_k", _k),
            system=read("system", lambda t, f: _choice(t, f, registry.names())) or "fide",
            elo_cap=read("elo_cap", lambda t, f: _whole(t, f, 1)),
            index=read("index", lambda t, f: _whole(t, f, 0)), on=read("date", _date),
            rating_list=read("list", lambda t, f: RatingList(_choice(t, f, RatingList)))
            or RatingList.STANDARD,
            table=bool(read("table", _flag)))

    def _refuse_conflicts(self) -> None:
        """Inputs that would silently override one another, or leave nothing to work out."""
        facts = [f for f in ("category", "games_played", "birth_year", "reached_2400")
                 if getattr(self, f) not in (None, False)]
        if self.k is not None and facts:
            raise CalcError(f"K and {FIELDS[facts[0]]} both decide the player's K: give one",
                            "k", "conflict", facts[0])
        if self.category is not None and len(facts) > 1:
            raise CalcError(f"the category and {FIELDS[facts[1]]} both decide the player's "
                            "K: give one", "category", "conflict", facts[1])
        national = self.system in registry.national(self.on or date.today())  # noqa: DTZ011
        if self.index is not None and not national:
            raise CalcError("the index counts for a national rating: give it with a national "
                            "system", "index", "conflict", "system")
        if national and (self.category is not None or self.reached_2400):
            field = "category" if self.category is not None else "reached_2400"
            raise CalcError(f"{FIELDS[field]} is FIDE's: leave it out for "
                            f"{self.system.upper()}", field, "conflict", "system")
        if self.elo_cap is not None and self.system != "elo":
            raise CalcError("the Elo cap applies to the generic Elo formula only", "elo_cap",
                            "conflict", "system")
        single = self.opponent is not None or self.result is not None
        if single and self.games:
            raise CalcError("give one game (the opponent's rating and the result) or a list "
                            "of games, not both", "game", "conflict", "opponent")
        if single and (self.opponent is None or self.result is None):
            missing = "opponent" if self.opponent is None else "result"
            raise CalcError(f"one game needs both the opponent's rating and the result: give "
                            f"{FIELDS[missing]}", missing, "missing")
        if self.table:
            return
        if self.rating is None:
            raise CalcError("give the player's rating", "rating", "missing")
        if not single and not self.games:
            raise CalcError("give the opponent's rating and the result, or the games "
                            "(each opponent's rating and result)", "opponent", "missing",
                            "result", "game")
        if self.opponent_k is not None and not single:
            raise CalcError("the opponent's K is for one game only", "opponent_k", "conflict",
                            "game")
