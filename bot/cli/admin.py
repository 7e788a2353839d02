"""Running the Discord side and the database: ``referee bot``, ``referee sync`` and ``referee db upgrade``."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any

import click

from bot.cli.common import EXIT_BAD_INPUT, EXIT_UNREACHABLE
from bot.storage.db import create_engine, database_url, dispose_after_failure, head_revision, is_sqlite, upgrade
from bot.storage.failures import is_storage_failure, storage_error


def _discord(work: str, **given: Any) -> Any:
    """Run ``bot.discord.app.<work>(settings)``. discord.py is imported only here: the offline commands start fast."""
    import discord  # noqa: PLC0415

    from bot.discord import app as discord_app  # noqa: PLC0415
    from bot.discord.settings import TOKEN_HELP, SettingsError, load_settings  # noqa: PLC0415

    try:
        settings = load_settings(**given)
    except SettingsError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    discord_app.configure_logging(settings.log_level)
    try:
        return asyncio.run(getattr(discord_app, work)(settings))
    except discord.LoginFailure:
        click.echo(f"error: Discord rejected DISCORD_TOKEN (it is wrong, or was reset). {TOKEN_HELP}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (OSError, discord.GatewayNotFound) as error:  # aiohttp's connection errors are OSErrors
        click.echo(f"error: cannot reach Discord ({unreachable(error)}). Check this machine's network, DNS and any "
                   "proxy, then start it again (under systemd, Restart=on-failure does).", err=True)  # fmt: skip
        sys.exit(EXIT_UNREACHABLE)
    except KeyboardInterrupt:
        return None


def unreachable(error: BaseException) -> str:
    """Why Discord could not be reached, in a few words (the last reason in the chain: "Name or service not known",
    "Connect call failed"...)."""
    reason = error
    while reason.__cause__ is not None:
        reason = reason.__cause__
    words = str(reason).strip() or type(reason).__name__
    return words if len(words) <= 160 else words[:159] + "…"


@click.command("bot")
@click.option("--web", is_flag=True, help="Serve the web pages from this process too (WEB_HOST, WEB_PORT; "
              "referee docs web).")  # fmt: skip
def bot_command(web: bool) -> None:
    """Run the Discord bot (settings from the environment or .env: DISCORD_TOKEN, DATABASE_URL, DEV_GUILD_ID...)."""
    _discord("run_bot", **({"serve_web": True} if web else {}))


@click.command("sync")
def sync_command() -> None:
    """Sync the slash commands globally, once, from one process (they can take up to an hour to appear)."""
    count = _discord("sync_commands")
    click.echo(f"Synced {count} global commands.")


@click.group("db")
def db_group() -> None:
    """The database of combat records and rosters (SQLite file by default, DATABASE_URL for PostgreSQL)."""


@db_group.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the database to the latest schema (two at once are safe: the second waits, then finds it
    current)."""
    url = database_url()

    async def run() -> None:
        threads = set(threading.enumerate())
        engine = create_engine(url)
        try:
            await upgrade(engine)  # one process at a time: a lock beside a SQLite file, an advisory lock on PostgreSQL
        except Exception as error:
            await dispose_after_failure(engine, threads)
            if is_storage_failure(error):
                raise storage_error(error, url) from error
            raise
        await engine.dispose()

    asyncio.run(run())
    where = "the SQLite file " + url.split("///", 1)[-1] if is_sqlite(url) else "PostgreSQL"
    click.echo(f"The database ({where}) is at the latest schema ({head_revision()}).")
