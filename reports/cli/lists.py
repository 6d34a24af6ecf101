"""``fiderate list``: keep FIDE's monthly rating lists in the register and look players up.

``list import FILE`` reads a download once (TXT or XML, zipped or not) and stores it as a
month's list; ``list show FIDEID…`` prints players' entries across the stored months.
``report`` and ``period`` use the stored list in force when no ``--ratings-list`` is given.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from importer import formats
from importer.formats import fidelist
from rating.period.months import parse_month
from rating.period.paths import default_store
from rating.period.register import Register
from reports.cli.progress import progress_bar
from reports.errors import ReportError
from reports.render import fmt

if TYPE_CHECKING:
    from datetime import date

    from importer.formats.fidelist import ListEntry

__all__ = ["list_"]

_NAME_MONTH = re.compile(r"(?<!\d)(\d{4})-(\d{2})(?!\d)")
_STORE_HELP = "The rating register (SQLite; default: in the user data directory)."


def _month(text: str) -> date:
    month = parse_month(text)
    if month is None:
        raise click.BadParameter(f"{text!r}: expected a list month YYYY-MM", param_hint="--month")
    return month


def _month_in_name(path: str) -> date | None:
    """A ``YYYY-MM`` in the file name (e.g. players_list_2026-10.zip)."""
    found = [month for m in _NAME_MONTH.finditer(Path(path).name)
             if (month := parse_month(m.group(0))) is not None]
    return found[-1] if found else None


def _store(store: str | None) -> Any:
    return Path(store) if store else default_store()


@click.group("list", context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.pass_context
def list_(ctx: click.Context) -> None:
    """FIDE rating lists in the register: import a month's download, show players.

    \b
    The monthly routine: import the new list once, then run the period.
      fiderate list import players_list.zip --month 2026-10
      fiderate period *.trf --period 2026-11 --out out/
      fiderate list show 1503014
    """
    if ctx.invoked_subcommand is None:  # bare `fiderate list`: its help, not an error
        click.echo(ctx.get_help())


@list_.command("import", context_settings={"help_option_names": ["-h", "--help"]},
               short_help="Store a FIDE rating list download as a month's list.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--store", type=click.Path(dir_okay=False), help=_STORE_HELP)
@click.option("--month", "month_text", metavar="YYYY-MM",
              help="The list's month (default: from the file's name or header).")
@click.option("--list", "kind", type=click.Choice(["standard", "rapid", "blitz"]),
              help="Which list a single-type download is (default: from the file name).")
@click.option("--system", type=click.Choice(["fide", "dwz", "ecf"]), default="fide",
              show_default=True,
              help="Whose list: FIDE's download, the DSB's DWZ export (CSV, zipped or not) or "
                   "the ECF's rating list (CSV).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or notes on stderr.")
def import_list(file: str, store: str | None, month_text: str | None, kind: str | None,
                system: str, quiet: bool) -> None:
    """Store a FIDE rating list download (TXT or XML, zipped or not) as a month's list, or a
    national list (--system dwz, ecf).

    Importing the same month again replaces it; a failed import leaves the register as it
    was.  A single-type list (standard, rapid or blitz) keeps the month's other lists.
    """

    if system != "fide":
        _import_national(file, store, month_text, system, quiet)
        return


    month = _month(month_text) if month_text else None
    show = not quiet and sys.stderr.isatty()
    bar = progress_bar("reading", unit="B", scale=True) if show else None

    def advance(done: int, total: int | None) -> None:
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    try:
        fide_list = fidelist.read_fide_list(file, kind=kind, on_progress=advance)
    finally:
        if bar is not None:
            bar.close()
    found = fide_list.list_date or _month_in_name(file)
    if month is None and found is None:
        raise ReportError(f"{file}: neither its name nor its header tells the list's month; "
                          "give --month YYYY-MM")
    notes = fmt.list_warnings(fide_list.warnings)
    if month is not None and found is not None and found != month:
        notes.append(f"{file}: the list of {found:%Y-%m}, stored as {month:%Y-%m} (--month)")
    month = month or found
    assert month is not None
    path = _store(store)
    bar = progress_bar("storing", total=len(fide_list), unit=" players", scale=True) \
        if show else None

    def stored(done: int, total: int) -> None:
        if bar is not None:
            bar.update(done - bar.n)

    try:
        with Register(path) as reg:
            result = reg.import_list(fide_list, month, on_progress=stored)
    finally:
        if bar is not None:
            bar.close()
    click.echo(f"stored the {month:%Y-%m} FIDE list ({', '.join(result.lists)}): "
               f"{result.players} players from {file} → {path}")
    if not quiet:
        for note in notes:
            click.echo(f"note: {note}", err=True)


def _import_national(file: str, store: str | None, month_text: str | None, system: str,
                     quiet: bool) -> None:
    """``list import --system dwz|ecf``: a national list as a month's list of its system."""

    national = formats.nationallist.read_national_list(file, system)
    month = _month(month_text) if month_text else None
    found = national.published.replace(day=1) if national.published else _month_in_name(file)
    if month is None and found is None:
        raise ReportError(f"{file}: neither its name nor its contents tell the list's month; "
                          "give --month YYYY-MM")
    month = month or found
    assert month is not None
    if not national.entries:
        raise ReportError(f"{file}: no player with a {system.upper()} rating in the list")
    path = _store(store)
    with Register(path) as reg:
        stored = reg.import_national_list(national, month, source=national.source)
    click.echo(f"stored the {month:%Y-%m} {system.upper()} list ({', '.join(stored.lists)}): "
               f"{stored.players} players from {file} → {path}")
    if not quiet:
        for note in dict.fromkeys(national.warnings):
            click.echo(f"note: {note}", err=True)


@list_.command("show", context_settings={"help_option_names": ["-h", "--help"]},
               short_help="Print players' entries on every stored FIDE list.")
@click.argument("fide_ids", nargs=-1, required=True, metavar="FIDEID...")
@click.option("--store", type=click.Path(dir_okay=False), help=_STORE_HELP)
def show_list(fide_ids: tuple[str, ...], store: str | None) -> None:
    """Print players' entries on every stored FIDE list, oldest month first."""
    bad = [i for i in fide_ids if not (i.strip().isascii() and i.strip().isdigit())]
    if bad:
        raise ReportError(f"{bad[0]!r}: expected a FIDE id (digits only)")
    path = _store(store)
    if not path.exists():
        raise ReportError(f"{path}: no register yet; store a list with 'fiderate list import FILE'")
    with Register(path) as reg:
        if not reg.stored_lists():
            raise ReportError(f"{path}: no FIDE list stored; store one with "
                              "'fiderate list import FILE'")
        history = reg.list_history(i.strip() for i in fide_ids)
    blocks = [_player_lines(fid, history[fid]) for fid in dict.fromkeys(i.strip() for i in fide_ids)]
    click.echo("\n\n".join("\n".join(lines) for lines in blocks))


def _player_lines(fide_id: str, entries: list[tuple[date, ListEntry]]) -> list[str]:
    """One player's heading and a table of their entries by month."""
    if not entries:
        return [f"{fide_id}: on no stored list"]
    last = entries[-1][1]
    about = ", ".join(x for x in (last.federation, last.title or last.w_title,
                                  str(last.birth_year or "")) if x)
    rows = [["month", "standard", "games", "K", "rapid", "games", "K", "blitz", "games", "K",
             "flags"]]
    for month, e in entries:
        rows.append([f"{month:%Y-%m}", *(_cell(v) for v in (
            e.std_rating, e.std_games, e.std_k, e.rpd_rating, e.rpd_games, e.rpd_k,
            e.blz_rating, e.blz_games, e.blz_k)), e.flags])
    return [f"{fide_id} {last.name}" + (f" ({about})" if about else ""),
            *fmt.text_table(rows, left=(0, 10))]


def _cell(value: int | None) -> str:
    return "-" if value is None else str(value)
