"""``fiderate period``: several tournaments → one FIDE list month (the rating-period engine),
and national periods beside it."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import click

from importer.model import RatingList
from importer.writing.atomic import StagedDir, check_output_folder, finish_swap
from rating.errors import RatingError
from rating.national import rate_national_period
from rating.period.months import parse_month
from rating.period.paths import default_store
from rating.period.register import Register
from rating.period.run import check_month
from rating.systems import registry
from reports.cli.options import national_list_option, out_options, read_national_lists, system_option
from reports.cli.sources import LoadOptions, load_events, source_options
from reports.errors import ReportError
from reports.period.month import rate_month
from reports.period.national import national_files
from reports.period.pages import write_period_files

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from datetime import date

    from importer.events import Events
    from importer.formats.nationallist import NationalList
    from rating.national import NationalPeriod
    from rating.period.records import PeriodResult

__all__ = ["period"]



def _month(text: str, what: str) -> date:
    month = parse_month(text)
    if month is None:
        raise click.BadParameter(f"{text!r}: expected a list month YYYY-MM", param_hint=what)
    return month


def _assignments(values: tuple[str, ...]) -> dict[str, date]:
    out: dict[str, date] = {}
    for v in values:
        source, sep, month = v.rpartition("=")
        if not sep or not source:
            raise click.BadParameter(f"{v!r}: expected SOURCE=YYYY-MM", param_hint="--assign")
        out[source] = _month(month, "--assign")
    return out


def _corrections(values: tuple[str, ...]) -> dict[str, int]:
    """FIDEID=RATING pairs, or CSV files with columns fide_id,rating."""
    pairs: list[tuple[str, str, str]] = []
    for v in values:
        fid, sep, rating = v.partition("=")
        if sep:
            pairs.append((fid, rating, f"--correction {v}"))
            continue
        path = Path(v)
        if not path.is_file():
            raise ReportError(f"--correction {v}: expected FIDEID=RATING or a CSV file")
        with path.open(encoding="utf-8-sig", newline="") as fh:
            for i, row in enumerate(csv.reader(fh), 1):
                if not row or (i == 1 and not row[0].strip().isdigit()):
                    continue
                if len(row) < 2:
                    raise ReportError(f"{path}:{i}: expected fide_id,rating")
                pairs.append((row[0], row[1], f"{path}:{i}"))
    out: dict[str, int] = {}
    for fid, rating, where in pairs:
        fid, rating = fid.strip(), rating.strip()
        if not fid.isdigit() or not rating.isdigit() or not 0 < int(rating) < 4000:
            raise ReportError(f"{where}: expected a FIDE id and a rating, e.g. 1503014=2830")
        out[fid] = int(rating)
    return out


def _event_month(sources: tuple[str, ...], assign: dict[str, date]) -> date | None:
    """The month an event is assigned to by --assign on any of its sources (by path or name)."""
    months = {m for s in sources
              if (m := assign.get(s, assign.get(PurePosixPath(s).name))) is not None}
    if len(months) > 1:
        raise ReportError(f"--assign: {', '.join(sources)} show one event but are assigned to "
                          f"{' and '.join(sorted(f'{m:%Y-%m}' for m in months))}")
    return next(iter(months), None)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("sources", nargs=-1, required=True)
@click.option("--period", "period_text", required=True, metavar="YYYY-MM",
              help="The list month, e.g. 2026-11 for the list of 1 November 2026.")
@click.option("--ratings-list", type=click.Path(dir_okay=False),
              help="The previous FIDE list (TXT/XML, zipped or not): base ratings and K "
                   "(default: the list stored in the register with 'fiderate list import').")
@click.option("--list", "only_list", type=click.Choice(["standard", "rapid", "blitz"]),
              help="Rate only the tournaments of this list (default: all three, kept apart).")
@click.option("--store", type=click.Path(dir_okay=False),
              help="The rating register (SQLite; default: in the user data directory).")
@click.option("--assign", multiple=True, metavar="SOURCE=YYYY-MM",
              help="The list month FIDE rates SOURCE on; another month than --period skips it.")
@click.option("--correction", multiple=True, metavar="FIDEID=RATING|CSV",
              help="Replace a player's base rating (FIDE's base corrections); repeatable.")
@click.option("--replace", is_flag=True,
              help="Allow recomputing a period older than the newest one in the register.")
@click.option("--rerate", is_flag=True,
              help="Rate here an event the register rated in another month (its earlier rating "
                   "is replaced; the months since are named as stale).")
@click.option("--no-html", is_flag=True, help="Skip period.html.")
@click.option("--reports", is_flag=True,
              help="Also write each tournament's own report (round by round) in a folder of its "
                   "own, linked from period.html.")
@system_option
@national_list_option
@out_options("Folder for period_players.csv, period_games.csv, period.html (and with --reports "
             "each tournament's report).",
             required=True)
@source_options
def period(**opts: Any) -> None:
    """Rate several tournaments as one FIDE rating period (list month), and national
    periods beside it (--system fide,dwz).

    \b
    Each player's change is summed over every tournament of the month with the
    period's K (K × n ≤ 700), exact to the hundredth, and rounded once.
    A player's FIDE calculations page among the SOURCES (saved, or its
    ratings.fide.com address) is a check: each differing figure is listed.
    A national system rates as its federation does: DWZ tournament after
    tournament in the order they ended, the others by month.
    \b
      fiderate period a.trf b.trf --period 2026-11 --ratings-list players_list_foa.txt \\
          --store ratings.sqlite --out out/
    """
    load = LoadOptions.pop_from(opts)
    run_period(load=load, **opts)


def run_period(*, sources: tuple[str, ...], period_text: str, ratings_list: str | None,
               only_list: str | None, store: str | None, assign: tuple[str, ...],
               correction: tuple[str, ...], replace: bool, rerate: bool, no_html: bool,
               out: str, force: bool, load: LoadOptions, reports: bool = False,
               system: tuple[str, ...] = ("fide",),
               national_list: tuple[str, ...] = ()) -> None:
    """The body of ``fiderate period``: options → :func:`reports.period.month.rate_month` → files and
    the register, in one atomic step (heavy imports happen here); the national systems'
    periods (:func:`rating.national.rate_national_period`) are written beside FIDE's, or
    alone when FIDE is not asked (the register then keeps nothing)."""


    when = _month(period_text, "--period")
    assigned = _assignments(assign)
    try:
        for month in (when, *assigned.values()):
            check_month(month)
    except RatingError as exc:
        raise click.BadParameter(str(exc), param_hint="--period/--assign") from None
    corrections = _corrections(correction)
    check_output_folder(out, force=force)
    lists = read_national_lists(national_list, system)
    found = load_events(sources, load)
    store_path = Path(store) if store else default_store()
    with Register(store_path) as reg:
        finish_outputs(reg)
        national = _national_periods(found, system, lists, reg, when,
                                     RatingList(only_list) if only_list else None)
        if "fide" not in system:
            _write_national(national, out, force=force, month=when)
        else:
            rated = rate_month(found, period=when, ratings_list=ratings_list, register=reg,
                               month_of=lambda e: _event_month(e.sources, assigned),
                               only_list=RatingList(only_list) if only_list else None,
                               corrections=corrections, replace_older=replace, rerate=rerate)
            result, fide_list = rated.result, rated.fide_list

            def write(folder: Path) -> None:
                write_period_files(result, folder, html_summary=not no_html,
                                   ratings_list=fide_list, fide_checks=rated.fide_checks,
                                   reports=reports)
                _national_files(national, folder, when)

            commit_period(reg, result, out, force=force, replace=replace, write=write)
            _summary(result, Path(out), quiet=load.quiet)
    for n in national:
        _national_summary(n, Path(out), quiet=load.quiet)


def _national_periods(found: Events, systems: tuple[str, ...],
                      lists: Mapping[str, NationalList], reg: Register, when: date,
                      only_list: RatingList | None) -> list[NationalPeriod]:
    """Each national system's period over the events given (the list given, else the one
    in force stored in the register)."""

    out = []
    events = [e.tournament for e in found.events]
    for name in systems:
        if name == "fide":
            continue
        kind = only_list or RatingList.STANDARD
        system = registry.build(name, registry.Settings(on=when, rating_list=kind))
        listed = lists.get(name) or reg.national_in_force(
            name, when, kind, [p for t in events for p in t.players])
        chosen = [t for t in events if (t.info.rating_list or RatingList.STANDARD) is kind]
        out.append(rate_national_period(chosen, system, listed=listed, on=when))
    return out


def _national_files(periods: Sequence[NationalPeriod], folder: Path, when: date) -> None:
    for n in periods:
        for name, text in national_files(n, f"{when:%Y-%m}").items():
            (folder / name).write_text(text, encoding="utf-8", newline="")


def _write_national(periods: Sequence[NationalPeriod], out: str, *, force: bool,
                    month: date) -> None:
    """The national periods alone, in one folder swapped in whole."""

    staged = StagedDir.beside(out, force=force)
    try:
        _national_files(periods, staged.path, month)
        staged.finish()
    except BaseException:
        staged.discard()
        raise
    staged.swap()


def _national_summary(n: NationalPeriod, out: Path, *, quiet: bool) -> None:
    events = len({s.tournament for s in n.steps})
    rated = sum(p.games > 0 for p in n.players)
    click.echo(f"{n.label} period: {events} tournament{'s' if events != 1 else ''}, "
               f"{rated} player{'s' if rated != 1 else ''} rated → {out}/period_{n.system}.html")
    if not quiet:
        for note in n.notes:
            click.echo(f"note: {n.label}: {note}", err=True)


def finish_outputs(reg: Register) -> None:
    """Swap in the output folders of periods committed before a kill stopped their swap."""
    for folder, staged in reg.pending_outputs():
        finish_swap(folder, staged)
        reg.output_done(folder)


def commit_period(reg: Register, result: PeriodResult, out: str, *, force: bool, replace: bool,
                  write: Callable[[Path], object]) -> None:
    """The register and the output folder change together: the folder is staged whole, the
    register commits the period with the staged folder's name, then the folder is swapped in
    (:func:`finish_outputs` ends a swap a kill interrupted).  A failure before the commit
    leaves both as they were."""


    staged = StagedDir.beside(out, force=force)
    try:
        write(staged.path)
        staged.finish()
        target = Path(out).absolute()
        reg.write_period(result, replace=replace, output=(target, staged.path.absolute()))
    except BaseException:
        staged.discard()
        raise
    staged.swap()
    reg.output_done(target)


def _summary(result: PeriodResult, out: Path, *, quiet: bool) -> None:
    counts = Counter(p.status for p in result.players)
    parts = ", ".join(f"{n} {s.words}" for s, n in sorted(counts.items()))
    n_t, n_g = len(result.tournaments), len(result.games)
    click.echo(f"period {result.period:%Y-%m}: {n_t} tournament{'s' if n_t != 1 else ''}, "
               f"{n_g} rated game{'s' if n_g != 1 else ''}; {parts or 'no players'} → {out}")
    if not quiet:
        for note in result.notes:
            click.echo(f"note: {note}", err=True)
