"""``fiderate period``: several tournaments → one FIDE list month (the rating-period engine).

Only click is imported at module level; the engine, pandas and the importer load inside
the command so ``fiderate --help`` stays fast.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import click

from reports.sources import LoadOptions, source_options

if TYPE_CHECKING:
    from datetime import date
    from pathlib import Path

    from importer.fidelist import FideList
    from importer.model import Tournament

__all__ = ["period"]

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def _month(text: str, what: str) -> date:
    from datetime import date

    m = _MONTH.match(text.strip())
    if not m or not 1 <= int(m.group(2)) <= 12:
        raise click.BadParameter(f"{text!r}: expected a list month YYYY-MM", param_hint=what)
    return date(int(m.group(1)), int(m.group(2)), 1)


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
    import csv
    from pathlib import Path

    from reports.errors import ReportError

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


def _tournament_key(source: str, t: Tournament, taken: set[str]) -> str:
    from pathlib import PurePosixPath

    raw = t.info.id or t.info.fide_event_id or PurePosixPath(source.rstrip("/")).stem or t.info.name
    key = re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip("-.") or "tournament"
    unique, n = key, 2
    while unique in taken:
        unique, n = f"{key}-{n}", n + 1
    taken.add(unique)
    return unique


def _assigned(source: str, assign: dict[str, date]) -> date | None:
    from pathlib import PurePosixPath

    return assign.get(source, assign.get(PurePosixPath(source).name))


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
@click.option("--no-html", is_flag=True, help="Skip period.html.")
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Folder for period_players.csv, period_games.csv and per-tournament reports.")
@source_options
def period(**opts: Any) -> None:
    """Rate several tournaments as one FIDE rating period (list month).

    \b
    Each player's change is summed over every tournament of the month with the
    period's K (K × n ≤ 700), exact to the hundredth, and rounded once.
    \b
      fiderate period a.trf b.trf --period 2026-11 --ratings-list players_list_foa.txt \\
          --store ratings.sqlite --out out/
    """
    load = LoadOptions.pop_from(opts)
    run_period(load=load, **opts)


def run_period(*, sources: tuple[str, ...], period_text: str, ratings_list: str | None,
               only_list: str | None, store: str | None, assign: tuple[str, ...],
               correction: tuple[str, ...], replace: bool, no_html: bool, out: str,
               load: LoadOptions) -> None:
    """The body of ``fiderate period`` (heavy imports happen here)."""
    from pathlib import Path

    from importer.atomic import atomic_dir
    from rating.period import month_add, player_key, rate_period
    from rating.register import Register, default_store
    from reports.period_report import write_period_files
    from reports.report import list_warnings
    from reports.sources import load_sources

    when = _month(period_text, "--period")
    assigned = _assignments(assign)
    corrections = _corrections(correction)
    notes: list[str] = []
    loaded = load_sources(sources, load, merge=False)
    chosen: list[Tournament] = []
    keys: list[str] = []
    on_purpose: set[str] = set()
    taken: set[str] = set()
    for source, t in zip(sources, loaded, strict=True):
        month = _assigned(source, assigned)
        if month is not None and month != when:
            notes.append(f"{source}: assigned to {month:%Y-%m}; not rated in {when:%Y-%m}")
            continue
        rl = t.info.rating_list.value if t.info.rating_list else "standard"
        if only_list is not None and rl != only_list:
            notes.append(f"{source}: a {rl} tournament; skipped (--list {only_list})")
            continue
        chosen.append(t)
        keys.append(_tournament_key(source, t, taken))
        if month is not None:
            on_purpose.add(keys[-1])
    pkeys = {player_key(p)[0] for t in chosen for p in t.players}
    fide_list = None
    if ratings_list:
        from importer.fidelist import read_fide_list

        fide_list = read_fide_list(ratings_list, fide_ids=pkeys)
        notes += list_warnings(fide_list.warnings)
    store_path = Path(store) if store else default_store()
    with Register(store_path) as reg:
        reg.check_period(when, replace=replace)
        if fide_list is None:
            fide_list = _register_list(reg, when, pkeys, notes)
        imported = _standings(fide_list, pkeys, month_add(when, -1), notes) if fide_list else {}
        previous = _merge(reg.previous(pkeys, when), imported)
        months = {t.info.start_date.replace(day=1) for t in chosen if t.info.start_date}
        in_force = {m: reg.ratings_on(m, pkeys) for m in months if m < month_add(when, -1)}
        result = rate_period(chosen, when, keys=keys, previous=previous, in_force=in_force,
                             pools=reg.pools(pkeys, when), corrections=corrections,
                             list_complete=fide_list is not None, assigned=on_purpose)
        result.notes[:0] = notes
        with atomic_dir(out) as folder:
            write_period_files(result, folder, html_summary=not no_html)
            _tournament_reports(result, folder, fide_list)
            reg.write_period(result, previous, imported=imported, replace=replace)
    _summary(result, Path(out), quiet=load.quiet)


def _register_list(reg: Any, when: date, keys: set[str], notes: list[str]) -> FideList | None:
    """The FIDE lists stored in the register for the previous month (or the newest before it),
    unless the register computed a later list itself."""
    from rating.period import month_add

    fl: FideList | None = reg.list_in_force(month_add(when, -1), keys)
    computed = reg.newest_period(before=when)
    if fl is None or fl.list_date is None or (computed is not None and fl.list_date < computed):
        return None
    notes.append(f"ratings and K from the FIDE list of {fl.list_date:%Y-%m} in the register")
    return fl


def _standings(fl: FideList, keys: set[str], prev: date, notes: list[str]) -> dict[Any, Any]:
    """Each player's standing on the previous list, per rating list, from the FIDE download."""
    from rating.period import LISTS, Standing

    if fl.list_date is not None and fl.list_date != prev:
        notes.append(f"{fl.source}: the list of {fl.list_date:%Y-%m}, used as the previous list "
                     f"({prev:%Y-%m})")
    out: dict[Any, Any] = {}
    for key in keys:
        e = fl.get(key) if key.isdigit() else None
        if e is None:
            continue
        for rl in LISTS:
            if str(rl) in fl.lists:
                out[(key, rl)] = Standing(rating=e.rating(rl), k=e.k(rl), birth_year=e.birth_year,
                                          inactive=e.inactive)
    return out


def _merge(register: dict[Any, Any], imported: dict[Any, Any]) -> dict[Any, Any]:
    """The list's rating and K win; the register adds games played and the 2400 history."""
    from dataclasses import replace

    merged = dict(register)
    for key, st in imported.items():
        old = register.get(key)
        if old is None:
            merged[key] = st
            continue
        merged[key] = replace(st, games_total=old.games_total, last_played=old.last_played,
                              reached_2400=old.reached_2400 or st.reached_2400,
                              birth_year=st.birth_year or old.birth_year)
    return merged


def _tournament_reports(result: Any, folder: Path, ratings_list: FideList | None) -> None:
    """The per-tournament CSV/HTML reports (reports.report) into <out>/<tournament-id>/."""
    from reports.report import write_report

    for spec in result.tournaments:
        write_report(spec.tournament, folder / spec.key, ratings_list=ratings_list,
                     on=spec.start)


def _summary(result: Any, out: Path, *, quiet: bool) -> None:
    from collections import Counter

    counts = Counter(result.players["status"])
    parts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    click.echo(f"period {result.period:%Y-%m}: {len(result.tournaments)} tournament(s), "
               f"{len(result.games)} rated game(s); {parts or 'no players'} → {out}")
    if not quiet:
        for note in result.notes:
            click.echo(f"note: {note}", err=True)
