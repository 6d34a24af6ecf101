"""``fiderate serve``: the web pages and the JSON API, on uvicorn (a production ASGI server)."""

from __future__ import annotations

from typing import Any

import click

__all__ = ["serve"]


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--store", type=click.Path(dir_okay=False), metavar="DB",
              help="The rating register the period page adds each month to (default: none).")
@click.option("--base-url", envvar="FIDERATE_BASE_URL", metavar="URL",
              help="Fetch chess-results pages from this mirror or test double "
                   "(env FIDERATE_BASE_URL).")
@click.option("--delay", type=click.FloatRange(min=0), default=1.0, show_default=True,
              help="Minimum seconds between requests to chess-results, for all users together.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
              help="Read timeout in seconds for each request to chess-results.")
def serve(**opts: Any) -> None:
    """The web page: paste a chess-results link or drop files, see the report.

    Also the calculator, the rating period and a JSON API (/api/openapi.json).
    Safe to expose: only chess-results is ever fetched, uploads are limited and
    read in a separate process with a time limit.

    \b
    Examples:
      fiderate serve                      # then open http://127.0.0.1:8000/
      fiderate serve --host 0.0.0.0 --port 8080 --store ratings.sqlite
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
                            timeout=opts["timeout"]))
    config = uvicorn.Config(app, log_level="warning", server_header=False, proxy_headers=False,
                            timeout_keep_alive=5, limit_concurrency=500, lifespan="on")
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"fiderate: serving on http://{shown}:{bound}/ (Ctrl+C to stop)", err=True)
    uvicorn.Server(config).run(sockets=[sock])
