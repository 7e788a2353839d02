"""`referee league ...`: the leagues' read-only views and their export, offline (changes happen in Discord)."""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from bot.access import OPERATOR
from bot.leagues.export import matches_csv, settings_csv, standings_csv
from bot.leagues.model import AuditEntry, LeagueInfo, MatchInfo, Standings
from bot.leagues.standings import TIE_BREAKERS
from bot.recording import with_store
from bot.storage import Store
from rules_core.compact import plural

GUILD_HELP = "The guild id, when several guilds have a league of that name."


def season_label(league: LeagueInfo, season: int) -> str:
    state = "open" if season == league.season and league.season_open else "ended"
    return f"season {season} ({state})"


def match_line(match: MatchInfo, agreed: Collection[int] = ()) -> str:
    """A match on one line; each combat both players agreed to marked (``combats #12 (agreed) #15``)."""
    score = f" {match.score}" if match.score else ""
    listed = " ".join(f"#{c} (agreed)" if c in agreed else f"#{c}" for c in match.combats)
    combats = f" combats {listed}" if match.combats else ""
    return (f"#{match.id} s{match.season} {match.created_at:%Y-%m-%d %H:%M} {match.reporter} {match.result} "
            f"v {match.opponent}{score} [{match.status}]{combats}")  # fmt: skip


def audit_line(entry: AuditEntry) -> str:
    about = f" match #{entry.match_id}" if entry.match_id is not None else ""
    why = f" ({entry.reason})" if entry.reason else ""
    change = ""
    if entry.before is not None and entry.after is not None:
        change = " " + ", ".join(f"{key}: {old} -> {new}" for key, old, new in entry.changes())
    elif entry.after is not None:
        change = " " + json.dumps(entry.after, sort_keys=True)
    return f"{entry.at:%Y-%m-%d %H:%M} {entry.kind}{about} by {entry.actor}{why}{change}"


@click.group("league")
def league_group() -> None:
    """Leagues kept by the Discord bot: list them; read standings, match history and the audit log; export."""


@league_group.command("list")
@click.option("--guild", default=None, help="Only this Discord guild id's leagues.")
def league_list(guild: str | None) -> None:
    """Every league (of one guild, with --guild)."""
    leagues = with_store(lambda store: store.leagues.all(actor=OPERATOR, guild_id=guild))
    if not leagues:
        click.echo("No leagues yet: organisers create them in Discord.")
        return
    table = Table("id", "game", "players", "w/d/l", "confirm", "guild")
    table.add_column("season", no_wrap=True)
    table.add_column("name", no_wrap=True)
    for league in leagues:
        table.add_row(str(league.id), league.game, str(len(league.players)),
                      f"{league.points.win}/{league.points.draw}/{league.points.loss}", f"{league.confirm_hours} h",
                      league.guild_id, f"{league.season} ({'open' if league.season_open else 'ended'})",
                      league.name)  # fmt: skip
    Console(highlight=False).print(table)
    for league in leagues:  # a line each, not a column: a terminal 80 wide cuts the table's columns short
        if league.require_agreed:
            click.echo(f"#{league.id} {league.name} counts only combats both players agreed to (challenges).")


@league_group.command("standings")
@click.argument("league")
@click.option("--season", type=click.IntRange(1), default=None, help="A past season (default: the current one).")
@click.option("--guild", default=None, help=GUILD_HELP)
def league_standings(league: str, season: int | None, guild: str | None) -> None:
    """The season's table: played, won, drawn, lost, points and Elo rating."""

    async def work(store: Store) -> Standings:
        found = await store.leagues.find(league, actor=OPERATOR, guild_id=guild)
        return await store.leagues.standings(found.id, actor=OPERATOR, season=season)

    standings = with_store(work)
    found = standings.league
    table = Table("#", "player", "P", "W", "D", "L", "pts", "rating",
                  title=f"{found.name}, {season_label(found, standings.season)}")  # fmt: skip
    for row in standings.rows:
        table.add_row(str(row.rank), row.player, str(row.played), str(row.won), str(row.drawn), str(row.lost),
                      str(row.points), f"{row.rating:.0f}")  # fmt: skip
    Console(highlight=False).print(table)
    click.echo(f"Order: {', then '.join(TIE_BREAKERS)}. Ratings: Elo from 1500, K = 32.")


@league_group.command("history")
@click.argument("league")
@click.option("--player", default=None, help="Only this player's (user id) matches.")
@click.option("--season", type=click.IntRange(1), default=None, help="Only this season.")
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True)
@click.option("--guild", default=None, help=GUILD_HELP)
def league_history(league: str, player: str | None, season: int | None, limit: int, guild: str | None) -> None:
    """The league's matches, newest first (the result is the first player's)."""

    async def work(store: Store) -> tuple[list[MatchInfo], set[int]]:
        found = await store.leagues.find(league, actor=OPERATOR, guild_id=guild)
        chosen = await store.matches.in_league(found.id, actor=OPERATOR, season=season, player=player, limit=limit)
        return chosen, set(await store.matches.agreements(c for m in chosen for c in m.combats))

    matches, agreed = with_store(work)
    if not matches:
        click.echo("No matches yet.")
    for match in matches:
        click.echo(match_line(match, agreed))


@league_group.command("audit")
@click.argument("league")
@click.option("--match", "match_id", type=int, default=None, help="Only this match's events.")
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True)
@click.option("--guild", default=None, help=GUILD_HELP)
def league_audit(league: str, match_id: int | None, limit: int, guild: str | None) -> None:
    """Every change to the league, newest first: who, when, and what it was before and after."""

    async def work(store: Store) -> list[AuditEntry]:
        found = await store.leagues.find(league, actor=OPERATOR, guild_id=guild)
        return await store.leagues.audit(found.id, actor=OPERATOR, match_id=match_id, limit=limit)

    for entry in with_store(work):
        click.echo(audit_line(entry))


@league_group.command("export")
@click.argument("league")
@click.option("--season", type=click.IntRange(1), default=None, help="The standings' season (default: current).")
@click.option("--output-dir", type=click.Path(file_okay=False, path_type=Path), default=Path(), show_default=True)
@click.option("--guild", default=None, help=GUILD_HELP)
def league_export(league: str, season: int | None, output_dir: Path, guild: str | None) -> None:
    """Write the league's matches (all seasons) and a season's standings as two CSV files (players' names, as
    the bot last saw them in Discord, beside their ids)."""

    async def work(store: Store) -> tuple[Standings, list[MatchInfo], dict[str, str], set[int]]:
        found = await store.leagues.find(league, actor=OPERATOR, guild_id=guild)
        standings = await store.leagues.standings(found.id, actor=OPERATOR, season=season)
        matches = await store.matches.in_league(found.id, actor=OPERATOR)
        players = [row.player for row in standings.rows] + [p for m in matches for p in (m.reporter, m.opponent)]
        known = await store.leagues.names(found.guild_id, players)  # as the bot last saw them in Discord
        agreed = set(await store.matches.agreements(c for m in matches for c in m.combats))
        return standings, matches, {user: entry.name for user, entry in known.items()}, agreed

    standings, matches, names, agreed = with_store(work)
    output_dir.mkdir(parents=True, exist_ok=True)
    stem = f"league-{standings.league.id}"
    matches_file = output_dir / f"{stem}-matches.csv"
    standings_file = output_dir / f"{stem}-season-{standings.season}-standings.csv"
    settings_file = output_dir / f"{stem}-settings.csv"
    matches_file.write_text(matches_csv(matches, names, agreed=agreed), encoding="utf-8")
    standings_file.write_text(standings_csv(standings.rows, names), encoding="utf-8")
    settings_file.write_text(settings_csv(standings.league), encoding="utf-8")
    click.echo(f"Wrote {plural(len(matches), 'match', 'matches')} to {matches_file}, "
               f"{plural(len(standings.rows), 'player')} to "
               f"{standings_file} and the league's settings to {settings_file}.")  # fmt: skip


__all__ = ["audit_line", "league_group", "match_line", "season_label"]
