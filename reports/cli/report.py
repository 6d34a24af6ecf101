"""``fiderate report``: round-by-round rating reports as CSV, HTML or a terminal table."""

from __future__ import annotations

import os
from typing import Any

import click

from importer.writing.atomic import check_output_folder
from rating.norms import EventClass
from rating.period.paths import default_store
from rating.systems.time_controls import QC_APPROVAL, standard_time
from reports.cli.options import (
    iso_date,
    k_option,
    national_list_option,
    out_options,
    read_national_lists,
    system_option,
)
from reports.cli.sources import LoadOptions, load_one, source_options
from reports.errors import ReportError
from reports.render.summary import summary_lines
from reports.render.terminal import render_norms, render_text, terminal_notes
from reports.report import build_report, save_report
from reports.settings import SettingError, parse_event_class, parse_target

__all__ = ["report"]


def _formats(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[str, ...]:
    parts = tuple(dict.fromkeys(p.strip().lower() for p in value.split(",") if p.strip()))
    bad = [p for p in parts if p not in ("csv", "html")]
    if bad or not parts:
        raise click.BadParameter(f"{value!r}: expected csv, html or csv,html")
    return parts


_EVENT_CLASSES = tuple(c.value for c in EventClass)
"""The values of --event-class."""


def _event_class(_ctx: click.Context, _param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    try:
        return parse_event_class(value)
    except SettingError as exc:
        raise click.BadParameter(str(exc)) from None


def _target(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_target(value)
    except SettingError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("sources", nargs=-1, required=True, metavar="SOURCE...")
@out_options("Write the report files as the folder DIR (default: print a table).")
@click.option("--format", "formats", default="csv,html", show_default=True, callback=_formats,
              metavar="csv,html",
              help="What to write into DIR: csv, html or both.")
@click.option("--player", "-p", metavar="N|NAME|FIDEID",
              help="Report one player (start number, name or FIDE id).")
@system_option
@national_list_option
@k_option("K for players whose K is not published, listed or derivable.")
@click.option("--ratings-list", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="A FIDE rating list download: players' K is taken from it (default: the "
                   "list in force stored in the register, if any).")
@click.option("--store", type=click.Path(dir_okay=False), metavar="DB",
              help="The rating register (default: in the user data directory).")
@click.option("--date", "on", callback=iso_date, metavar="YYYY-MM-DD",
              help="The date whose rules apply when the source gives no event date "
                   "(default: its last update, else today).")
@click.option("--event-class", "event_class", callback=_event_class,
              metavar="|".join(_EVENT_CLASSES),
              help="What kind of event it is, for the title norms (no source shows it): a "
                   "national championship final, a national team championship, a zonal "
                   "(these three exempt from the federation conditions) or a World or "
                   "Continental team or club championship (7 games suffice).")
@click.option("--qc-approved", "qc_approved", is_flag=True,
              help="FIDE's Qualification Commission approved the event's fast-standard time "
                   "control (45 min + 30 s or longer, from 2026) for title norms (no source "
                   "shows it).")
@click.option("--target", "target", callback=_target, metavar="RATING",
              help="Your own rating target (1000 to 3000): each player's 'What do I need?' "
                   "says what the rounds still to play need to reach or keep it, and when "
                   "the live rating crossed it.")
@click.option("--norms-only", is_flag=True,
              help="Print the title norms achieved, possible or not decidable, and write "
                   "nothing.")
@click.option("--open", "open_", is_flag=True, help="Open index.html when done.")
@source_options
def report(sources: tuple[str, ...], **opts: Any) -> None:
    """Rating changes round by round, as chess-results and Swiss-Manager show them.

    Per player: K × Σ(S − E) over the rated games, with the tournament's ratings and
    the FIDE rules of its start date; forfeits, byes and unrated opponents are listed
    but not rated.  Paired, unfinished games get win/draw/loss scenarios, and each
    player a "What do I need?": the score the rounds still to play need for each rating
    threshold, a rating gain and each title norm (--target for your own), the thresholds
    crossed, and the games a norm counts.  National ratings are shown beside FIDE with
    --system fide,dwz (any registered systems).

    \b
    Examples:
      fiderate report fixtures/sample_open.trf --out out/
      fiderate report saved/*.html --player 12
      fiderate report saved/*.html --player 12 --target 2300
      fiderate report https://chess-results.com/tnr1452107.aspx --out out/ --open
      fiderate report saved/*.html --norms-only --event-class zonal
      fiderate report saved/*.html --system fide,dwz --national-list LV-0-csv.zip
    """

    load = LoadOptions.pop_from(opts)
    out = opts["out"]
    ctx = click.get_current_context()
    if out is None and ctx.get_parameter_source("formats") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--format needs --out (without --out the report is printed)")
    if opts["norms_only"] and out is not None:
        raise click.UsageError("--norms-only prints the norms and writes nothing: leave out --out")
    if opts["open_"] and (out is None or "html" not in opts["formats"]):
        raise click.UsageError("--open needs --out and the html format")
    if out is not None:
        check_output_folder(out, force=opts["force"])
    lists = read_national_lists(opts["national_list"], opts["system"])
    t = load_one(list(sources), load)

    system, *also = opts["system"]
    built = build_report(t, system=system, also=also, k_default=opts["k_default"],
                         ratings_list=opts["ratings_list"],
                         store=opts["store"] or default_store(), on=opts["on"],
                         focus=opts["player"], event_class=opts["event_class"],
                         qc_approved=opts["qc_approved"], national_lists=lists,
                         target=opts["target"])
    _refuse_not_standard(t, built)
    if not opts["qc_approved"] and _needs_approval(built):
        click.echo("hint: if FIDE's Qualification Commission approved the event's time control "
                   "for title norms, add --qc-approved", err=True)
    if opts["norms_only"]:
        click.echo(render_norms(built))
        return
    if not load.quiet:
        for line in summary_lines(t, warnings=False):  # the report's notes carry them
            click.echo(line, err=True)
    if out is None:
        click.echo(render_text(built))  # the notes end the printed table
        return
    if not load.quiet:
        for line in terminal_notes(built):
            click.echo(line, err=True)
    written = save_report(built, out, opts["formats"], force=opts["force"])
    if not load.quiet:
        where = (f"; open {os.path.join(out, 'index.html')} in a browser"
                 if "html" in opts["formats"] else "")
        click.echo(f"wrote {len(written)} files to {out}{where}", err=True)
    if opts["open_"]:
        click.launch(os.path.join(out, "index.html"))


def _refuse_not_standard(t: Any, built: Any) -> None:
    """ReportError (exit 2, nothing written) when FIDE rates none of a standard event's games
    for its time control (Rating Regulations 1.1–1.2, :mod:`rating.systems.time_controls`)."""

    if built.rating.system == "fide":
        refusal = standard_time(t, built.rating.on).refusal
        if refusal:
            raise ReportError(refusal)


def _needs_approval(built: Any) -> bool:
    """Whether a norm was refused only for want of FIDE's Qualification Commission's approval."""
    return any(c.name == "time control" and c.ok is False and c.need == QC_APPROVAL
               for n in built.norms for c in n.conditions)
