"""`referee settings show|export --guild ID`: a Discord server's settings and their whole audit, offline on the
configured database (managers change them in Discord; docs/settings.md)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click

from bot.recording import with_store
from bot.server_settings.model import SERVER
from bot.server_settings.words import change_text, setting_line
from bot.storage.settings import change_from_dict

CSV_COLUMNS = ("record", "id", "at", "actor", "scope", "scope_id", "key", "before", "after")


@click.group("settings")
def settings_group() -> None:
    """A Discord server's settings (house rules, visibility, threads, channels) and every change of them, offline."""


def _exported(guild: str) -> dict[str, Any]:
    return with_store(lambda store: store.settings.export(guild))


def _place(row: dict[str, Any]) -> str:
    return "server" if row["scope"] == SERVER else f"channel {row['scope_id']}"


@settings_group.command("show")
@click.option("--guild", required=True, help="The Discord server's (guild's) id.")
def settings_show(guild: str) -> None:
    """The settings in effect in one server, each channel's own, and every change, oldest first."""
    data = _exported(guild)
    if not data["settings"] and not data["settings_changes"]:
        click.echo(f"No settings for guild {guild}: the bot's defaults apply (its managers change them in Discord).")
        return
    click.echo(f"Settings of guild {guild}")
    places: dict[str, list[str]] = {}
    for row in data["settings"]:
        places.setdefault(_place(row), []).append(setting_line(row["key"], row["value"]))
    if not data["settings"]:
        click.echo("  none set: the bot's defaults apply")
    for place in sorted(places, key=lambda name: (name != "server", name)):
        heading = "The server" if place == "server" else f"In {place} (overrides the server)"
        click.echo(f"{heading}:")
        for line in places[place]:
            click.echo(f"  {line}")
    click.echo(f"Changes, oldest first ({len(data['settings_changes'])}):")
    for entry in data["settings_changes"]:
        change = change_from_dict(entry)
        click.echo(f"  #{change.id} {change.at:%Y-%m-%d %H:%M} by {change.actor}: {change_text(change)}")


def _csv(data: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in data["settings"]:
        writer.writerow(("setting", "", row["updated_at"], row["updated_by"], row["scope"], row["scope_id"],
                         row["key"], "", json.dumps(row["value"])))  # fmt: skip
    for change in data["settings_changes"]:
        before = "" if change["before"] is None else json.dumps(change["before"])
        after = "" if change["after"] is None else json.dumps(change["after"])
        writer.writerow(("change", change["id"], change["at"], change["actor"], change["scope"], change["scope_id"],
                         change["key"], before, after))  # fmt: skip
    return out.getvalue()


@settings_group.command("export")
@click.option("--guild", required=True, help="The Discord server's (guild's) id.")
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True,
              help="JSON (settings and changes), or CSV (one row each, marked setting or change).")  # fmt: skip
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None, help="Write to a file.")
def settings_export(guild: str, fmt: str, output: str | None) -> None:
    """One server's settings and their whole audit (who, when, before, after), as JSON or CSV."""
    data = _exported(guild)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n" if fmt == "json" else _csv(data)
    if output is None:
        click.echo(text, nl=False)
        return
    Path(output).write_text(text, encoding="utf-8")
    click.echo(f"Wrote {len(data['settings'])} settings and {len(data['settings_changes'])} changes to {output}.")
