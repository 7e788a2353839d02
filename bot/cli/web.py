"""``referee web``: serve the read-only web pages (leagues, public combats) from the configured database."""

from __future__ import annotations

import asyncio
import logging
import sys

import click
from pydantic import ValidationError

from bot.cli.common import EXIT_BAD_INPUT


@click.command("web")
@click.option("--host", default=None, help="Address to listen on (default WEB_HOST, else 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port (default WEB_PORT, else 8080).")
def web_command(host: str | None, port: int | None) -> None:
    """Serve the web pages: league standings, matches and ratings, and combat records, of the servers that publish
    them (settings from the environment or .env: DATABASE_URL, WEB_BASE_URL, WEB_HOST, WEB_PORT; referee docs web)."""
    from bot.log_lines import configure  # noqa: PLC0415
    from bot.web.app import run_web  # noqa: PLC0415 (aiohttp's server and Jinja2 only for this command)
    from bot.web.config import WebConfig  # noqa: PLC0415

    try:
        config = WebConfig()
    except ValidationError as error:
        problems = "; ".join(f"{str(item['loc'][0]).upper()}: {item['msg']}" for item in error.errors())
        click.echo(f"error: bad settings: {problems}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    changes = {key: value for key, value in (("web_host", host), ("web_port", port)) if value is not None}
    config = config.model_copy(update=changes)
    configure(logging.INFO)  # one escaped line a record, as the bot's (bot/log_lines.py)
    click.echo(f"Serving the web pages on http://{config.web_host}:{config.web_port} (Ctrl+C stops).")
    try:
        asyncio.run(run_web(config))
    except KeyboardInterrupt:
        return
    except OSError as error:
        click.echo(f"error: cannot listen on {config.web_host}:{config.web_port}: {error.strerror}. Choose another "
                   "port with --port.", err=True)  # fmt: skip
        sys.exit(EXIT_BAD_INPUT)
