"""``fiderate calc``: the classic Elo calculator, done exactly (FIDE rules by date, or generic Elo)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import click

from reports.options import iso_date

__all__ = ["calc", "calc_output", "parse_result"]

_RESULT_WORDS = {
    "win": "1", "w": "1", "1": "1", "1.0": "1", "+": "1",
    "draw": "0.5", "d": "0.5", "0.5": "0.5", ".5": "0.5", "½": "0.5", "=": "0.5", "1/2": "0.5",
    "loss": "0", "l": "0", "0": "0", "0.0": "0", "-": "0",
}


def parse_result(text: str) -> Decimal:
    """'win', 'w', '1' → 1; 'draw', 'd', '½', '=', '0.5' → 0.5; 'loss', 'l', '0' → 0."""
    try:
        return Decimal(_RESULT_WORDS[text.strip().lower()])
    except KeyError:
        raise click.BadParameter(
            f"unknown result {text!r}: expected win/draw/loss, w/d/l, 1/½/0 or =") from None


def _parse_game(text: str) -> tuple[int | None, Decimal]:
    opp, sep, res = text.partition(":")
    if not sep:
        raise click.BadParameter(f"{text!r}: expected OPPONENT:RESULT, e.g. 1650:1 or unrated:0.5")
    opp = opp.strip().lower()
    if opp in ("0", "unrated", "-", ""):
        return None, parse_result(res)
    try:
        return int(opp), parse_result(res)
    except ValueError:
        raise click.BadParameter(f"{text!r}: the opponent must be a rating or 'unrated'") from None


def _refuse_conflicts(opts: dict[str, Any]) -> None:
    """Options that would silently override one another are refused."""
    facts = [name for name, given in (("--category", opts["category"]),
                                      ("--games-played", opts["games_played"] is not None),
                                      ("--birth-year", opts["birth_year"] is not None),
                                      ("--reached-2400", opts["reached_2400"])) if given]
    if opts["k"] is not None and facts:
        raise click.UsageError(f"--k and {facts[0]} both set K: give one")
    if opts["category"] and len(facts) > 1:
        raise click.UsageError(f"--category and {facts[1]} both decide the category: give one")
    if opts["elo_cap"] is not None and opts["system"] != "elo":
        raise click.UsageError("--elo-cap applies to --system elo only")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rating", "-r", type=int, help="The player's rating (player A).")
@click.option("--opponent", type=int, help="Opponent's rating, for a single game.")
@click.option("--result", "result_text", help="Single-game result: win, draw or loss (or 1, ½, 0).")
@click.option("--game", "-g", "games", multiple=True, metavar="OPP:RES",
              help="A game against OPP (a rating, or 'unrated') with result RES; repeatable.")
@click.option("--k", "k", type=int, help="K factor of player A (default 20, with a note).")
@click.option("--category", type=click.Choice(["new", "junior", "established", "master"]),
              help="Player A's FIDE K category instead of --k.")
@click.option("--games-played", type=int, help="Rated games A has played (K 40 below 30).")
@click.option("--birth-year", type=int, help="A's birth year (K 40 up to the year they turn 18).")
@click.option("--reached-2400", is_flag=True, help="A's published rating has reached 2400 (K 10).")
@click.option("--opponent-k", type=int, help="The opponent's K (default: 10 if rated 2400+, else 20).")
@click.option("--system", type=click.Choice(["fide", "elo"]), default="fide", show_default=True,
              help="FIDE table 8.1.2 with the rules of --date, or the generic logistic Elo formula.")
@click.option("--elo-cap", type=int, default=None,
              help="With --system elo: limit the difference to this many points (e.g. 400).")
@click.option("--date", "on", callback=iso_date, help="Tournament start date for the FIDE rule "
              "version (default: today).")
@click.option("--list", "rating_list", type=click.Choice(["standard", "rapid", "blitz"]),
              default="standard", show_default=True, help="FIDE rating list.")
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
    """
    out = calc_output(opts)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False, default=float) if opts["as_json"] else out)


def calc_output(opts: dict[str, Any]) -> dict[str, Any] | str:
    """The calculation for this command's parsed options: text, or a JSON-ready dict with
    ``as_json`` (click's UsageError or BadParameter on bad input)."""
    from reports.calc_view import run_calc

    opts = dict(opts)
    opts["on"] = opts["on"] or dt.datetime.now().astimezone().date()  # the user's today
    _refuse_conflicts(opts)
    games: list[tuple[int | None, Decimal]] = [_parse_game(g) for g in opts.pop("games")]
    result_text = opts.pop("result_text")
    if opts["opponent"] is not None or result_text is not None:
        if opts["opponent"] is None or result_text is None:
            raise click.UsageError("a single game needs both --opponent and --result")
        if games:
            raise click.UsageError("use either --opponent/--result or --game, not both")
    result = parse_result(result_text) if result_text is not None else None
    return run_calc(games=games, result=result, **opts)

