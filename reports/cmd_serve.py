"""``fiderate serve``: the web pages and the JSON API, on uvicorn (a production ASGI server)."""

from __future__ import annotations

from typing import Any

import click

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
    from reports.web.security import parse_origin

    for value in values:
        if parse_origin(value) is None:
            raise click.BadParameter(f"{value!r}: expected scheme://host[:port], e.g. "
                                     "https://ratings.example.org")
    return values


def _proxies(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
             ) -> tuple[str, ...]:
    from reports.web.fair import parse_networks

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
    refused, and the register is written only with the write token.

    \b
    Examples:
      fiderate serve                      # then open http://127.0.0.1:8000/
      fiderate serve --host 0.0.0.0 --port 8080 --store ratings.sqlite
      FIDERATE_WRITE_TOKEN='a long secret' fiderate serve --store ratings.sqlite
    """
    import socket

    import uvicorn

    from reports.errors import ReportError
    from reports.web.app import create_app
    from reports.web.service import Config

    host, port = opts["host"], opts["port"]
    try:
        sock = socket.create_server((host, port),
                                    family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as exc:
        why = str(exc.strerror or exc).split(" (while attempting", 1)[0]
        raise ReportError(f"cannot listen on {host} port {port}: {why}") from None
    bound = sock.getsockname()[1]
    app = create_app(Config(base_url=opts["base_url"], store=opts["store"], delay=opts["delay"],
                            timeout=opts["timeout"], write_token=opts["write_token"],
                            origins=opts["origins"], memory=opts["memory"] * 1024 * 1024,
                            trusted_proxies=opts["trusted_proxies"]))
    config = uvicorn.Config(app, log_level="warning", server_header=False, proxy_headers=False,
                            timeout_keep_alive=5, limit_concurrency=500, lifespan="on")
    if opts["store"]:
        saves = ("saves months to it only with the write token" if opts["write_token"]
                 else "never writes it (no write token)")
        click.echo(f"fiderate: the period page reads the register {opts['store']} and {saves}",
                   err=True)
    elif opts["write_token"]:
        click.echo("fiderate: the write token has no use without --store: nothing is stored",
                   err=True)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"fiderate: serving on http://{shown}:{bound}/ (Ctrl+C to stop)", err=True)
    uvicorn.Server(config).run(sockets=[sock])
