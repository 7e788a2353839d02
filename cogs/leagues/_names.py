"""Players' display names for the rating chart's legend and the CSV export, without privileged intents.

The bot has no member list (no Server Members intent): it learns names from what Discord sends anyway (the
interaction's user and the users and members in its options, each with its name in this server; kept only for
people who play in one of the server's leagues), and asks the REST API for the rest (a member by id, else the
user by id: neither needs the intent). Names are cached per server in the store (personal data: exported and
deleted with the user, docs/privacy.md) and fetched again when older than :data:`FRESH_FOR`; a name that cannot
be fetched in time keeps its older value, or the end of the id.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.leagues.model import KnownName

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

log = logging.getLogger("referee.bot")
FRESH_FOR = timedelta(days=1)  # a nickname changed today shows in tomorrow's chart at the latest
FETCH_AT_MOST = 25  # names fetched for one answer; the others keep what is cached (or the end of their id)
FETCH_SECONDS = 2.0  # an answer waits no longer for names (Discord wants the answer within 3 s)


def now() -> datetime:
    return datetime.now(UTC)


def seen_names(interaction: discord.Interaction[Any]) -> dict[str, str]:
    """The names an interaction carries: its user's, and those of the users it names in its options."""
    found = {str(interaction.user.id): interaction.user.display_name}
    for _, value in interaction.namespace:
        if isinstance(value, discord.User | discord.Member):
            found[str(value.id)] = value.display_name
    return found


class NameBook:
    """The cog's access to players' names: noting those seen, and naming players for a chart or a CSV."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self._noted: dict[tuple[str, str], tuple[str, datetime]] = {}  # what this process stored last, and when

    async def note(self, interaction: discord.Interaction[Any]) -> None:
        """Cache the names the interaction shows, of league players (written when new, changed or due again)."""
        if interaction.guild_id is None:
            return
        guild, moment = str(interaction.guild_id), now()
        changed = {
            user: name
            for user, name in seen_names(interaction).items()
            if (last := self._noted.get((guild, user))) is None or last[0] != name or moment - last[1] > FRESH_FOR / 2
        }
        if not changed:
            return
        try:  # only league players' names: nobody else's is kept
            kept = await self.bot.store.leagues.remember_names(guild, changed, at=moment, players_only=True)
        except Exception:  # a name is a nicety: the command itself goes on
            log.exception("could not cache display names")
            return
        self._noted.update({(guild, user): (name, moment) for user, name in changed.items() if user in kept})

    async def names(self, guild_id: str, players: Iterable[str], *, at: datetime | None = None) -> dict[str, str]:
        """Display names by id for these players of this server: cached, and fetched where missing or stale."""
        moment = at or now()
        wanted = list(dict.fromkeys(players))
        known: dict[str, KnownName] = await self.bot.store.leagues.names(guild_id, wanted)
        stale = [p for p in wanted if p.isdigit() and (p not in known or moment - known[p].fetched_at > FRESH_FOR)]
        fetched = await self._fetch(guild_id, stale[:FETCH_AT_MOST])
        if fetched:
            await self.bot.store.leagues.remember_names(guild_id, fetched, at=moment)
        return {user: entry.name for user, entry in known.items()} | fetched

    async def _fetch(self, guild_id: str, users: list[str]) -> dict[str, str]:
        if not users:
            return {}
        tasks = {user: asyncio.create_task(self._fetch_one(guild_id, user)) for user in users}
        _done, pending = await asyncio.wait(tasks.values(), timeout=FETCH_SECONDS)
        for task in pending:
            task.cancel()
        return {
            user: name
            for user, task in tasks.items()
            if task.done() and not task.cancelled() and task.exception() is None and (name := task.result())
        }

    async def _fetch_one(self, guild_id: str, user: str) -> str | None:
        """The member's name in the server; a former member's user name; None when Discord cannot say."""
        guild = self.bot.get_guild(int(guild_id))
        try:
            if guild is not None:
                try:
                    return (await guild.fetch_member(int(user))).display_name
                except discord.NotFound:
                    pass  # left the server: their account's name still labels their games
            return (await self.bot.fetch_user(int(user))).display_name
        except discord.HTTPException:
            return None


__all__ = ["FETCH_AT_MOST", "FRESH_FOR", "NameBook", "seen_names"]
