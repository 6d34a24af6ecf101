"""The report's columns: one schema that the CSV, HTML, terminal and JSON renderers read.

Each column (a :class:`rating.systems.base.Column`) has its name (the CSV header, the JSON key), its
exact value for a row, its :class:`~rating.systems.base.Form` (how the value is written) and its
header for people (on the pages, and a shorter one in the terminal's narrow tables).  The
columns a rating system adds beside the main one are Columns too, and go through the same
functions here; the number formatting itself is :mod:`reports.render.fmt`'s.

How each form is written:

============  ==============  ==============  =========================================
form          CSV             pages           JSON
============  ==============  ==============  =========================================
PLAIN         1500, true      1500, yes       1500, true (null when empty)
TEXT          Doe, John       Doe, John       "Doe, John" (the CSV neutralises formulas)
POINTS        4.5             4½              "4.5"
TOTAL         1.67            1.67            "1.67"
EXPECTED      0.36, 0.849     0.36            "0.36"
CHANGE        -3.80           -3.80, +3.00    "-3.80"
WHOLE_CHANGE  3               +3              3
PUBLISHED     8.9             +8.90           "8.9"
============  ==============  ==============  =========================================

**The JSON carries exact values**: every decimal is a string holding exactly the CSV's
figure (never a binary float, which would turn ``-3.80`` into ``-3.8`` and could not hold
``0.1``); whole numbers are JSON integers, yes/no are booleans, an empty cell is ``null``.

Pure: no I/O, and nothing here knows a rating system by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from importer.model import Player, Tournament
from rating.norms import Condition, NormCheck, NormResult
from rating.results import PlayerRating, RoundLine, Scenario, TournamentRating
from rating.systems.base import Cell, Column, Form
from reports.errors import ReportError
from reports.render import fmt
from reports.render.summary import live_round, rounds_with_results

__all__ = [
    "NORMS",
    "NORM_COLUMNS",
    "PLAYERS",
    "PLAYER_COLUMNS",
    "ROUNDS",
    "ROUND_COLUMNS",
    "SCENARIOS",
    "SCENARIO_COLUMNS",
    "TOURNAMENT",
    "TOURNAMENT_COLUMNS",
    "JsonValue",
    "PlayerRow",
    "RoundRow",
    "ScenarioRow",
    "TournamentRow",
    "by_name",
    "condition_words",
    "csv_value",
    "exact",
    "json_value",
    "listed",
    "names",
    "norm_listed",
    "not_checked",
    "page_text",
    "rounded_change",
]

T = TypeVar("T")

JsonValue = int | str | bool | None
"""One cell as the JSON carries it."""


# ------------------------------------------------------------------------------ formats

def exact(value: Decimal | None) -> str:
    """An exact decimal as plain text without exponent or spurious zeros: 0.5, 4, 12.25
    ('' for none)."""
    if value is None:
        return ""
    return format(value.normalize(), "f") if value != 0 else "0"


def _decimal(value: Cell) -> Decimal | None:
    """A numeric cell as a Decimal (a whole number too); None stays None."""
    if value is None or isinstance(value, Decimal):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    raise ReportError(f"a rating system's column gave {value!r} where a number is expected")


_DECIMALS = frozenset({Form.POINTS, Form.TOTAL, Form.EXPECTED, Form.CHANGE, Form.PUBLISHED})
"""The forms whose values are exact decimals (written as text, in the JSON too)."""


def csv_value(form: Form, value: Cell) -> object:
    """A value as the CSV writes it: decimals formatted here, the rest as they are (the CSV
    writer turns None into an empty cell and true/false into words)."""
    if form in (Form.POINTS, Form.PUBLISHED):
        return exact(_decimal(value))
    if form in (Form.TOTAL, Form.CHANGE):
        return fmt.change(_decimal(value))
    if form is Form.EXPECTED:
        return fmt.expected(_decimal(value))
    return value


def json_value(form: Form, value: Cell) -> JsonValue:
    """A value as the JSON carries it: a decimal as the CSV's figure in a string (None when
    the CSV's cell is empty), anything else as it is."""
    if form in _DECIMALS:
        text = csv_value(form, value)
        return text if isinstance(text, str) and text else None
    if isinstance(value, Decimal):  # a system's decimal in a plain column: exact too
        return str(value)
    return value


def page_text(form: Form, value: Cell) -> str:
    """A value as the pages and the terminal show it ('' for none)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if form is Form.POINTS:
        return fmt.points(_decimal(value))
    if form is Form.TOTAL:
        return fmt.change(_decimal(value))
    if form is Form.EXPECTED:
        return fmt.expected(_decimal(value))
    if form in (Form.CHANGE, Form.PUBLISHED):
        return fmt.signed(_decimal(value))
    if form is Form.WHOLE_CHANGE and isinstance(value, int):
        return fmt.signed(value)
    return str(value)


def names(columns: Iterable[Column[Any]]) -> tuple[str, ...]:
    """The columns' names, in order."""
    return tuple(c.name for c in columns)


def by_name(columns: Iterable[Column[T]]) -> dict[str, Column[T]]:
    """The columns by name."""
    return {c.name: c for c in columns}


def rounded_change(pr: PlayerRating) -> int | None:
    """The change as the new rating takes it: new rating − rating (FIDE: the exact total
    rounded once, half away from zero); None when the player has no rating or new rating."""
    if pr.rating is None or pr.new_rating is None:
        return None
    return pr.new_rating - pr.rating


# ------------------------------------------------------------------------------ the rows

@dataclass(frozen=True, slots=True)
class PlayerRow:
    """What a players-table row reads: the player's rating and record, and whether our
    change agrees with the published one."""

    rating: PlayerRating
    player: Player
    agrees: bool | None = None
    """Our change equals the source's published one at the hundredth (None: not compared)."""


@dataclass(frozen=True, slots=True)
class RoundRow:
    """What a rounds-table row reads: one round of one player, and the opponent's record."""

    start_no: int
    line: RoundLine
    opponent: Player | None


@dataclass(frozen=True, slots=True)
class ScenarioRow:
    """What a scenarios-table row reads: a paired, unfinished game of a rated player."""

    player: Player
    rating: int
    scenario: Scenario
    opponent: Player


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """What the tournament table's one row reads."""

    tournament: Tournament
    rating: TournamentRating


def _if_rated(pr: PlayerRating) -> Decimal | None:
    """The change of a player with a rating (none for a player without)."""
    return pr.change if pr.rating is not None else None


def _initial(pr: PlayerRating) -> int | None:
    """A first rating the rules give (none while it is only workings)."""
    return pr.initial.value if pr.initial is not None and pr.initial.published else None


PLAYERS: tuple[Column[PlayerRow], ...] = (
    Column("start_no", lambda r: r.rating.start_no, header="No.", title="Start number",
           short="No"),
    Column("name", lambda r: r.player.name, Form.TEXT, header="Name"),
    Column("fide_id", lambda r: r.player.fide_id, Form.TEXT),
    Column("rating", lambda r: r.rating.rating, header="Rating",
           title="The rating the tournament uses", short="Rtg"),
    Column("k", lambda r: r.rating.k, header="K",
           title="Development coefficient: the change for a whole point above expectation"),
    Column("rated_games", lambda r: r.rating.rated_games, header="Games", title="Rated games"),
    Column("score", lambda r: r.rating.score, Form.POINTS, header="Score",
           title="Points in the rated games"),
    Column("expected", lambda r: r.rating.expected, Form.TOTAL, header="Expected",
           title="Expected score: the sum over the rated games", short="Exp"),
    Column("change", lambda r: _if_rated(r.rating), Form.CHANGE, header="Change",
           title="The exact change, then rounded as the new rating takes it"),
    Column("new_rating", lambda r: r.rating.new_rating, header="New",
           title="Rating + the rounded change"),
    Column("performance", lambda r: r.rating.performance, header="Perf.",
           title="Performance rating", short="Perf"),
    Column("title", lambda r: r.player.title, Form.TEXT),
    Column("federation", lambda r: r.player.federation, Form.TEXT, header="FED",
           title="Federation"),
    Column("points", lambda r: r.rating.points, Form.POINTS, header="Pts.",
           title="Points in all rounds, byes and forfeits included", short="Pts"),
    Column("k_source", lambda r: r.rating.k_source.value if r.rating.k is not None else "",
           Form.TEXT),
    Column("initial_rating", lambda r: _initial(r.rating)),
    Column("published_change", lambda r: r.rating.published_change, Form.PUBLISHED),
    Column("change_agrees", lambda r: r.agrees),
    Column("rounded_change", lambda r: rounded_change(r.rating), Form.WHOLE_CHANGE),
)
"""rating_players.csv: one row per player (totals)."""

ROUNDS: tuple[Column[RoundRow], ...] = (
    Column("start_no", lambda r: r.start_no),
    Column("round", lambda r: r.line.round, header="Rd.", title="Round", short="Rd"),
    Column("opponent_no", lambda r: r.line.opponent_no, header="No.",
           title="The opponent's start number"),
    Column("opponent_name", lambda r: r.opponent.name if r.opponent is not None else "",
           Form.TEXT, header="Opponent"),
    Column("opponent_rating", lambda r: r.line.opponent_rating, header="Rating",
           title="The opponent's rating", short="Rtg"),
    Column("colour", lambda r: r.line.colour.value, Form.TEXT, header="Colour"),
    Column("points", lambda r: r.line.points, Form.POINTS, header="Result", short="Res"),
    Column("rated", lambda r: r.line.rated),
    Column("reason", lambda r: r.line.reason, Form.TEXT),
    Column("expected", lambda r: r.line.expected, Form.EXPECTED, header="Expected",
           title="The expected score from the rating difference", short="Exp"),
    Column("change", lambda r: r.line.change, Form.CHANGE, header="Change",
           title="K × (result − expected), exact"),
    Column("cumulative_change", lambda r: r.line.cumulative, Form.CHANGE, header="Cumulative",
           title="The changes so far, added up", short="Cum"),
    Column("k", lambda r: r.line.k, header="K", title="Development coefficient"),
    Column("status", lambda r: r.line.status.value, Form.TEXT),
    Column("capped", lambda r: r.line.capped),
    Column("published_change", lambda r: r.line.published_change, Form.PUBLISHED,
           header="Source", title="The change the source publishes"),
)
"""rating_rounds.csv: one row per player and round."""


SCENARIOS: tuple[Column[ScenarioRow], ...] = (
    Column("start_no", lambda r: r.player.start_no),
    Column("name", lambda r: r.player.name, Form.TEXT),
    Column("round", lambda r: r.scenario.round),
    Column("opponent_no", lambda r: r.scenario.opponent_no),
    Column("opponent_name", lambda r: r.opponent.name, Form.TEXT),
    Column("opponent_rating", lambda r: r.scenario.opponent_rating),
    Column("k", lambda r: r.scenario.k),
    Column("expected", lambda r: r.scenario.expected, Form.EXPECTED),
    Column("win", lambda r: r.scenario.win, Form.CHANGE),
    Column("draw", lambda r: r.scenario.draw, Form.CHANGE),
    Column("loss", lambda r: r.scenario.loss, Form.CHANGE),
    Column("total_if_win", lambda r: r.scenario.total_if_win, Form.CHANGE),
    Column("total_if_draw", lambda r: r.scenario.total_if_draw, Form.CHANGE),
    Column("total_if_loss", lambda r: r.scenario.total_if_loss, Form.CHANGE),
    Column("rating", lambda r: r.rating),
    Column("new_rating_if_win", lambda r: r.scenario.new_if_win),
    Column("new_rating_if_draw", lambda r: r.scenario.new_if_draw),
    Column("new_rating_if_loss", lambda r: r.scenario.new_if_loss),
    Column("rated", lambda r: r.scenario.rated),
    Column("reason", lambda r: r.scenario.reason, Form.TEXT),
)
"""scenarios.csv: one row per paired, unfinished game of a rated player."""

TOURNAMENT: tuple[Column[TournamentRow], ...] = (
    Column("id", lambda r: r.tournament.info.id, Form.TEXT),
    Column("name", lambda r: r.tournament.info.name, Form.TEXT),
    Column("system", lambda r: r.rating.system),
    Column("rules", lambda r: r.rating.rules_label, Form.TEXT),
    Column("rules_date", lambda r: r.rating.on.isoformat()),
    Column("date_source", lambda r: r.rating.date_source),
    Column("rating_list", lambda r: r.rating.rating_list.value),
    Column("list_source", lambda r: r.tournament.info.list_source.value),
    Column("rounds", lambda r: r.tournament.info.rounds or r.tournament.rounds_seen or None),
    Column("rounds_with_results", lambda r: rounds_with_results(r.tournament)),
    Column("live", lambda r: live_round(r.tournament) is not None),
)
"""rating_tournament.csv: how the tournament was rated, and how far it has got."""

NORM_LISTED = frozenset({NormResult.ACHIEVED, NormResult.POSSIBLE, NormResult.NOT_DECIDABLE})
"""The norms norms.csv lists: made, still within reach, or turning on what the source does
not show (never a missed one)."""


def norm_listed(check: NormCheck) -> bool:
    """Whether norms.csv (and the JSON, the terminal) lists this check."""
    return check.result in NORM_LISTED


def listed(words: Iterable[str]) -> str:
    """Words as one cell, '; '-separated (a semicolon inside one becomes a comma, so the
    cell splits back into the same words)."""
    return "; ".join(w.replace(";", ",") for w in words)


def condition_words(condition: Condition) -> str:
    """A condition in words, without the 'not checked: ' the outputs say in their own way."""
    return condition.words.removeprefix("not checked: ")


def not_checked(check: NormCheck) -> tuple[str, ...]:
    """The conditions no source shows (time control, registration, …), in words."""
    return tuple(condition_words(c) for c in check.conditions if not c.checked)


def _counted(check: NormCheck, value: int, *conditions: str) -> int | None:
    """A count the check made, or None when the source does not show what it counts (the
    condition has no figure: titles or federations not shown)."""
    return value if games_shown(check) and all(
        c.have for c in check.conditions if c.name in conditions) else None


def games_shown(check: NormCheck) -> bool:
    """Whether the source shows the games the check counts (a ranking list alone shows none:
    the games and the score are unknown, never 0)."""
    return all(c.have for c in check.conditions if c.name == "games")


NORMS: tuple[Column[NormCheck], ...] = (
    Column("start_no", lambda c: c.start_no),
    Column("name", lambda c: c.name, Form.TEXT),
    Column("norm", lambda c: c.norm.value),
    Column("result", lambda c: c.result.value),
    Column("rounds", lambda c: c.rounds, Form.TEXT),
    Column("games", lambda c: c.games if games_shown(c) else None),
    Column("application_games", lambda c: c.application_games),
    Column("score", lambda c: c.score if games_shown(c) else None, Form.POINTS),
    Column("ra", lambda c: c.ra),
    Column("ra_floor_raised", lambda c: c.ra_floor_raised if c.ra is not None else None),
    Column("performance", lambda c: c.performance),
    Column("titled_opponents",
           lambda c: _counted(c, c.titled_opponents, "titled opponents")),
    Column("title_opponents", lambda c: _counted(c, c.title_opponents, "title opponents")),
    Column("federations", lambda c: _counted(c, c.federations, "federations")),
    Column("own_federation",
           lambda c: _counted(c, c.own_federation, "federations", "own federation")),
    Column("exemption", lambda c: c.exemption, Form.TEXT),
    Column("needs", lambda c: c.needs, Form.TEXT),
    Column("reasons", lambda c: listed(c.reasons), Form.TEXT),
    Column("not_checked", lambda c: listed(not_checked(c)), Form.TEXT),
)
"""norms.csv: one row per player and norm achieved, possible or not decidable."""

PLAYER_COLUMNS = names(PLAYERS)
NORM_COLUMNS = names(NORMS)
ROUND_COLUMNS = names(ROUNDS)
SCENARIO_COLUMNS = names(SCENARIOS)
TOURNAMENT_COLUMNS = names(TOURNAMENT)


def values(columns: Sequence[Column[T]], row: T | None) -> list[Cell]:
    """The columns' exact values for one row (all None when there is no such row)."""
    return [None if row is None else c.value(row) for c in columns]
