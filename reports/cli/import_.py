"""``fiderate import``: any supported source → our normalized CSV folder, JSON or TRF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from importer.writing.atomic import check_output_folder, write_folder_atomic
from reports.cli.options import out_options
from reports.cli.sources import LoadOptions, load_one, source_options
from reports.render.exporting import render_tournament
from reports.render.summary import summary_lines

__all__ = ["import_"]


@click.command("import", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("sources", nargs=-1, required=True)
@out_options("Write this folder (csv: tournament/players/results/games.csv; json: "
             "tournament.json; trf, trf16: tournament.trf). Without it, print to stdout.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "trf", "trf16"]), default="csv",
              show_default=True,
              help="Output format: trf is TRF-2026 (CR line ends), trf16 the older TRF16 (LF).")
@click.option("--table", type=click.Choice(["tournament", "players", "results", "games"]),
              default="players", show_default=True,
              help="With --format csv and no --out: which table to print.")
@source_options
def import_(sources: tuple[str, ...], out: str | None, fmt: str, table: str, **opts: Any) -> None:
    """Import a tournament from SOURCE(s) into fiderate's normalized model.

    SOURCE is a chess-results URL or tournament number (any page of it, or a player card),
    one or several saved chess-results pages of one tournament, a chess-results Excel export
    (.xlsx or the older .xls), a page saved as MHTML (.mht, .mhtml), a Swiss-Manager CSV
    export, a TRF file, or a folder this command wrote.
    The format is detected from the content, not the file name.

    \b
    Examples:
      fiderate import fixtures/sample_open.trf --out out/
      fiderate import 1452107 --format trf > british.trf
      fiderate import saved/art0.html saved/art5.html --out out/ --format json
    """


    load_opts = LoadOptions.pop_from(opts)
    if out is not None:
        check_output_folder(out, force=opts["force"])
    t = load_one(sources, load_opts)
    files = render_tournament(t, fmt)
    if out is None:
        name = f"{table}.csv" if fmt == "csv" else next(iter(files))
        click.echo(files[name], nl=False)
    else:
        write_folder_atomic(out, files, force=opts["force"])
    if not load_opts.quiet:
        for line in summary_lines(t):
            click.echo(line, err=True)
        if out is not None:
            click.echo(f"Wrote {', '.join(sorted(files))} to {Path(out)}", err=True)
