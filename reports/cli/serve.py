"""``fiderate serve``: the web pages and the JSON API, on uvicorn (a production ASGI server)."""

from __future__ import annotations

from typing import Any

import click

from importer.errors import FetchError
from importer.net.http import default_cache_path
from reports.errors import ReportError
from reports.web.access import Sink
from reports.web.app import create_app
from reports.web.fair import parse_networks
from reports.web.limits import Limits, file_limit
from reports.web.security import parse_origin
from reports.web.server import Settings, listen, run_workers
from reports.web.service import Config
from reports.web.shared import REDIS_SCHEMES, shared_for

__all__ = ["serve"]

MIN_TOKEN = 12
"""The shortest write token taken (a short one could be guessed)."""


def _token(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """The write token, checked (never shown, not even in the error)."""
    if value is None:
        return None
    if (len(value) < MIN_TOKEN or value != value.strip()
            or not all(32 <= ord(ch) <= 126 for ch in value)):
        raise click.BadParameter(
            f"use {MIN_TOKEN} or more letters, digits, punctuation or spaces (none first or "
            "last), e.g. a passphrase or what python3 -c 'import secrets; "
            "print(secrets.token_urlsafe())' prints")
    return value


def _origins(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
             ) -> tuple[str, ...]:
    for value in values:
        if parse_origin(value) is None:
            raise click.BadParameter(f"{value!r}: expected scheme://host[:port], e.g. "
                                     "https://ratings.example.org")
    return values


def _proxies(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
             ) -> tuple[str, ...]:
    try:
        parse_networks(values)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return values


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--store", type=click.Path(dir_okay=False), metavar="DB",
              help="The rating register the period page reads, and saves each month to with "
                   "the write token (default: none).")
@click.option("--write-token", envvar="FIDERATE_WRITE_TOKEN", metavar="TOKEN",
              callback=_token, show_envvar=False,
              help="The secret that lets the period page save a month to the --store register "
                   "(without it the register is only read). Better in env "
                   "FIDERATE_WRITE_TOKEN: a command line is seen by other users of the machine.")
@click.option("--origin", "origins", multiple=True, metavar="URL", callback=_origins,
              help="The address people open the pages at, e.g. https://ratings.example.org, "
                   "when the server sees another (behind a TLS proxy); repeatable. Form posts "
                   "from any other address are refused (default: each request's own).")
@click.option("--base-url", envvar="FIDERATE_BASE_URL", metavar="URL",
              help="Fetch chess-results pages from this mirror or test double "
                   "(env FIDERATE_BASE_URL).")
@click.option("--delay", type=click.FloatRange(min=0), default=1.0, show_default=True,
              help="Minimum seconds between requests to chess-results, for all users together.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
              help="Read timeout in seconds for each request to chess-results.")
@click.option("--page-deadline", type=click.FloatRange(min=0.5), default=30.0,
              show_default=True, metavar="SECONDS",
              help="Most seconds one chess-results page may take, however it trickles.")
@click.option("--header-timeout", type=click.FloatRange(min=0.1), default=10.0,
              show_default=True, metavar="SECONDS",
              help="A client's request line and headers must be in within this long; then "
                   "the connection is closed.")
@click.option("--body-timeout", type=click.FloatRange(min=0.1), default=30.0,
              show_default=True, metavar="SECONDS",
              help="A request body must keep coming at 1 KB a second or more over each this "
                   "long, and a client that takes none of an answer for this long is cut off.")
@click.option("--max-connections", type=click.IntRange(min=1), default=1000,
              show_default=True, metavar="N",
              help="Connections at once, all clients together (lowered to what the "
                   "open-files limit allows).")
@click.option("--max-client-connections", type=click.IntRange(min=0), default=32,
              show_default=True, metavar="N",
              help="Connections at once from one address (0: no limit; behind a proxy every "
                   "connection comes from the proxy's).")
@click.option("--access-log", metavar="FILE", default="-", show_default=True,
              help="Append a line per request to FILE, in the combined log format (-: stderr).")
@click.option("--no-access-log", is_flag=True, help="Write no access log.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes serving together, sharing the HTTP cache, the turns to ask "
                   "chess-results and the reports of uploads.")
@click.option("--cache", "cache", metavar="FILE|redis://HOST:PORT/DB",
              help="The HTTP cache: a SQLite file (default: in the user cache folder), or a "
                   "Redis server shared by several machines (then also their turns to ask "
                   "chess-results and the reports of uploads).")
@click.option("--memory", type=click.IntRange(min=1), default=256, show_default=True,
              metavar="MB", help="Megabytes of reports and rating periods kept in memory.")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              callback=_proxies,
              help="A proxy in front of the server (address or network, e.g. 127.0.0.1): "
                   "the client of its requests is the one its X-Forwarded-For names; "
                   "repeatable (default: the connection's own address).")
def serve(**opts: Any) -> None:
    """The web page: paste a chess-results link or drop files, see the report.

    Also the calculator, the rating period and a JSON API (/api/openapi.json).
    Safe to expose: only chess-results is ever fetched, uploads are limited and
    read in a separate process with a time limit, posts from other web sites are
    refused, the register is written only with the write token, and a slow or
    greedy client is cut off (the limits below).  One line per request goes to the
    access log (stderr unless told otherwise), never the write token.

    \b
    Examples:
      fiderate serve                      # then open http://127.0.0.1:8000/
      fiderate serve --host 0.0.0.0 --port 8080 --store ratings.sqlite
      FIDERATE_WRITE_TOKEN='a long secret' fiderate serve --store ratings.sqlite
    """

    settings = _settings(opts)
    host, port = opts["host"], opts["port"]
    try:
        sock = listen(host, port)
    except OSError as exc:
        why = str(exc.strerror or exc).split(" (while attempting", 1)[0]
        raise ReportError(f"cannot listen on {host} port {port}: {why}") from None
    bound = sock.getsockname()[1]
    config = Config(base_url=opts["base_url"], store=opts["store"], delay=opts["delay"],
                    timeout=opts["timeout"], write_token=opts["write_token"],
                    origins=opts["origins"], memory=opts["memory"] * 1024 * 1024,
                    trusted_proxies=opts["trusted_proxies"], cache_path=opts["cache"],
                    workers=opts["workers"], page_deadline=opts["page_deadline"])
    _check_cache(config)
    if opts["store"]:
        saves = ("saves months to it only with the write token" if opts["write_token"]
                 else "never writes it (no write token)")
        click.echo(f"fiderate: the period page reads the register {opts['store']} and {saves}",
                   err=True)
    elif opts["write_token"]:
        click.echo("fiderate: the write token has no use without --store: nothing is stored",
                   err=True)
    shown = f"[{host}]" if ":" in host else host
    workers = f" with {opts['workers']} workers" if opts["workers"] > 1 else ""
    click.echo(f"fiderate: serving on http://{shown}:{bound}/{workers} (Ctrl+C to stop)",
               err=True)
    run_workers(lambda: create_app(config), sock, settings, opts["workers"])


def _check_cache(config: Config) -> None:
    """A shared cache that cannot be reached is one line before anything starts."""
    cache = config.cache_path or ""
    if config.workers > 1 or cache.startswith(REDIS_SCHEMES):
        try:
            shared_for(cache or _default_cache())
        except FetchError as exc:
            raise ReportError(str(exc)) from None


def _default_cache() -> str:
    return default_cache_path()


def _settings(opts: dict[str, Any]) -> Settings:
    """The server's limits (the connection cap within the open-files limit, raised first)
    and its access log, from the options."""

    limits = Limits(header_timeout=opts["header_timeout"], body_timeout=opts["body_timeout"],
                    connections=opts["max_connections"],
                    per_client=opts["max_client_connections"]).fitted(file_limit())
    log = None
    if opts["no_access_log"] and opts["access_log"] != "-":
        raise click.UsageError("give --access-log FILE or --no-access-log, not both")
    if not opts["no_access_log"]:
        try:
            log = Sink(opts["access_log"])
        except OSError as exc:
            raise ReportError(f"cannot write the access log {opts['access_log']}: "
                              f"{exc.strerror or exc}") from None
    return Settings(limits=limits, access_log=log,
                    secrets=(opts["write_token"],) if opts["write_token"] else ())
