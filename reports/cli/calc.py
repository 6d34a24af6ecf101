"""``fiderate calc``: the classic Elo calculator, done exactly (FIDE rules by date, or generic Elo)."""

from __future__ import annotations

import json
from typing import Any

import click

from reports.calc import view as calc_view
from reports.calc.input import CalcError, CalcInput
from reports.cli.options import SystemOption

__all__ = ["OPTIONS", "calc", "calc_output"]

OPTIONS = {"rating": "--rating", "opponent": "--opponent", "result": "--result",
           "game": "--game", "k": "--k", "category": "--category",
           "games_played": "--games-played", "birth_year": "--birth-year",
           "reached_2400": "--reached-2400", "opponent_k": "--opponent-k",
           "system": "--system", "elo_cap": "--elo-cap", "index": "--index", "date": "--date",
           "list": "--list",
           "table": "--table"}
"""The option that gives each of the calculator's fields (:mod:`reports.calc.input`)."""


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rating", "-r", metavar="R", help="The player's rating (player A).")
@click.option("--opponent", metavar="O", help="Opponent's rating, for a single game.")
@click.option("--result", metavar="win|draw|loss",
              help="Single-game result: win, draw or loss (or 1, ½, 0).")
@click.option("--game", "-g", "game", multiple=True, metavar="OPP:RES",
              help="A game against OPP (a rating, or 'unrated') with result RES; repeatable.")
@click.option("--k", "k", metavar="K", help="K factor of player A (default 20, with a note).")
@click.option("--category", metavar="new|junior|established|master",
              help="Player A's FIDE K category instead of --k.")
@click.option("--games-played", metavar="N", help="Rated games A has played (K 40 below 30).")
@click.option("--birth-year", metavar="Y",
              help="A's birth year (K 40 up to the year they turn 18).")
@click.option("--reached-2400", is_flag=True, help="A's published rating has reached 2400 (K 10).")
@click.option("--opponent-k", metavar="K",
              help="The opponent's K (default: 10 if rated 2400+, else 20).")
@click.option("--system", metavar="SYSTEM", default="fide", show_default=True,
              cls=SystemOption, several=False)
@click.option("--index", metavar="N", help="With --system dwz: how many times the player's "
              "DWZ has been evaluated before (the index on the DSB's list).")
@click.option("--elo-cap", metavar="N",
              help="With --system elo: limit the difference to this many points (e.g. 400).")
@click.option("--date", metavar="YYYY-MM-DD", help="Tournament start date for the FIDE rule "
              "version (default: today).")
@click.option("--list", "list", metavar="standard|rapid|blitz", default="standard",
              show_default=True, help="FIDE rating list.")
@click.option("--table", is_flag=True, help="Print worked examples: a win against opponents "
              "300 below, equal and 300 above, and the same game in each FIDE category.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def calc(**opts: Any) -> None:
    """Expected score, K factor and rating change for one game or several.

    \b
    One game (both players are shown, and A's change for each result):
      fiderate calc --rating 1500 --opponent 1600 --result win --category junior
    Several games (a tournament or a month; K × games ≤ 700 applies):
      fiderate calc --rating 1850 --k 20 -g 1900:1 -g 2010:0.5 -g unrated:1
    Generic Elo (logistic formula, three decimals):
      fiderate calc --system elo -r 1500 --opponent 1200 --result win
    A national rating with its federation's rules of --date:
      fiderate calc --system dwz -r 1500 --index 5 --birth-year 1990 -g 1600:1 -g 1400:0.5
    """
    out = calc_output(opts)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False, default=float) if opts["as_json"] else out)


def _fields(opts: dict[str, Any]) -> list[tuple[str, str]]:
    """The options given, as the calculator's fields."""
    pairs = [("game", g) for g in opts["game"]]
    for name in OPTIONS:
        value = opts[name]
        if name != "game" and value not in (None, False):
            pairs.append((name, "yes" if value is True else value))
    return pairs


def calc_output(opts: dict[str, Any]) -> dict[str, Any] | str:
    """The calculation for this command's parsed options: text, or a JSON-ready dict with
    ``as_json``; a bad input is click's UsageError, its options named before the words."""

    try:
        inputs = CalcInput.from_fields(_fields(opts))
    except CalcError as exc:
        joined = " or " if exc.code == "missing" else " and "
        options = joined.join(OPTIONS[f] for f in exc.fields if f in OPTIONS)
        raise click.UsageError(f"{options}: {exc}") from None
    if inputs.table:
        table = calc_view.worked_examples(inputs)
        return table if opts["as_json"] else calc_view.table_text(table)
    run = calc_view.run_calc(inputs)
    return calc_view.calc_json(run) if opts["as_json"] else calc_view.calc_text(run)
