"""Everything stored about one user or one guild, from the terminal: ``referee data export|delete``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from bot.recording import with_store
from bot.storage import LOCAL_USER


@click.group("data")
def data_group() -> None:
    """Everything stored about one user or one guild: export it, or delete it (referee docs privacy)."""


def _subject(user: str | None, guild: str | None) -> dict[str, str | None]:
    if user is not None and guild is not None:
        raise click.UsageError("Give --user or --guild, not both.")
    return {"user": LOCAL_USER, "guild": None} if user is None and guild is None else {"user": user, "guild": guild}


@data_group.command("export")
@click.option("--user", default=None, help="A user id (default: 'local', everything done offline).")
@click.option("--guild", default=None, help="A Discord guild id.")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None, help="Write to a file.")
def data_export(user: str | None, guild: str | None, output: str | None) -> None:
    """Every combat record and roster of a user (or a guild), as JSON."""
    subject = _subject(user, guild)
    exported = with_store(lambda store: store.privacy.export(**subject))
    text = json.dumps(exported, indent=2, ensure_ascii=False)
    if output is None:
        click.echo(text)
        return
    Path(output).write_text(text + "\n", encoding="utf-8")
    click.echo(f"Wrote {len(exported['combat_records'])} combat records and {len(exported['rosters'])} rosters "
               f"to {output}.")  # fmt: skip


@data_group.command("delete")
@click.option("--user", default=None, help="A user id (default: 'local').")
@click.option("--guild", default=None, help="A Discord guild id.")
@click.option("--yes", is_flag=True, help="Really delete: there is no undo (export first if in doubt).")
def data_delete(user: str | None, guild: str | None, yes: bool) -> None:
    """Delete a user's (or a guild's) records and rosters for good."""
    subject = _subject(user, guild)
    who = f"user {subject['user']}" if subject["user"] is not None else f"guild {subject['guild']}"
    if not yes:
        raise click.UsageError(f"This deletes every record and roster of {who} for good: add --yes to go ahead.")
    counts = with_store(lambda store: store.privacy.delete(**subject))
    click.echo(f"Deleted the data of {who}: " + ", ".join(f"{key.replace('_', ' ')} {n}" for key, n in counts.items()))
