"""Rosters on Discord: one command group; the YAML file format is the offline one (docs/rosters.md)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.interactions import guild_of
from bot.discord.options import game_choices
from bot.render.colours import INFO_COLOUR
from bot.render.markdown import cut, escape
from bot.rosters import (
    MAX_ROSTER_FILE_BYTES,
    RosterError,
    check_roster,
    dump_roster_file,
    fighting_pair,
    parse_roster_file,
    shipped_rosters,
)
from rules_core import get_game
from rules_core.registry import command_path
from rules_core.spec import split_units

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

GAMES = game_choices()


class RostersCog(commands.GroupCog, group_name="roster", group_description="Saved units: use them as @name."):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="save", description="Save units under a name (saving a name again replaces it).")
    @app_commands.describe(name="Lower-case letters, digits, - or _ (then use it as @name).",
                           game="The game they are for.", spec="The units, as after attacker:",
                           description="A line saying what it is.",
                           share="Let everyone in this server use it by name.")  # fmt: skip
    @app_commands.choices(game=GAMES)
    async def save(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 60], game: str,
        spec: app_commands.Range[str, 1, 4000], description: app_commands.Range[str, 0, 500] = "",
        share: bool = False,
    ) -> None:  # fmt: skip
        roster = check_roster(game, name, spec, description)
        guild = str(interaction.guild_id) if share and interaction.guild_id is not None else None
        saved = await self.bot.store.rosters.save(str(interaction.user.id), roster, guild_id=guild)
        shared = " and shared with this server" if saved.guild_id else ""
        await interaction.response.send_message(
            f"Saved the {saved.game} roster `{saved.name}`{shared}. Use it as `@{saved.name}` "
            f"(or `@{saved.name}/1` for its first unit).",
            ephemeral=True,
        )

    @app_commands.command(name="show", description="Show a roster's units.")
    @app_commands.describe(name="The roster's name (without the @).", game="The game it is for.")
    @app_commands.choices(game=GAMES)
    async def show(self, interaction: discord.Interaction[Any], name: str, game: str) -> None:
        guild = guild_of(interaction)
        roster = await self.bot.store.rosters.get(str(interaction.user.id), game, name, guild_id=guild)
        units = "\n".join(f"{n}. `{unit.strip()}`" for n, unit in enumerate(split_units(roster.spec), start=1))
        embed = discord.Embed(title=f"{roster.name} ({roster.game})", description=cut(units, 4096), colour=INFO_COLOUR)
        if roster.description:
            embed.set_footer(text=cut(roster.description, 2048))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="list", description="Your rosters, and those shared with this server.")
    @app_commands.describe(game="Only this game's rosters (leave out for every game).")
    @app_commands.choices(game=GAMES)
    async def list_rosters(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        guild = guild_of(interaction)
        rosters = await self.bot.store.rosters.visible_to(str(interaction.user.id), game=game, guild_id=guild)
        if not rosters:
            await interaction.response.send_message(
                "No rosters yet: `/roster save` makes one; `/roster samples` saves the shipped sample units.",
                ephemeral=True,
            )
            return
        lines = [f"`@{r.name}` ({r.game}, {len(split_units(r.spec))} units){' · shared' if r.guild_id else ''}"
                 f"{': ' + escape(r.description) if r.description else ''}" for r in rosters]  # fmt: skip
        embed = discord.Embed(title="Rosters", description=cut("\n".join(lines), 4096), colour=INFO_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="delete", description="Delete one of your rosters.")
    @app_commands.describe(name="The roster's name (without the @).", game="The game it is for.")
    @app_commands.choices(game=GAMES)
    async def delete(self, interaction: discord.Interaction[Any], name: str, game: str) -> None:
        await self.bot.store.rosters.delete(str(interaction.user.id), game, name)
        await interaction.response.send_message(f"Deleted the {game} roster `{name}`.", ephemeral=True)

    @app_commands.command(name="import", description="Import a roster file (YAML): every roster in it, or none.")
    @app_commands.describe(file="A .yaml roster file (schema referee-rosters/1).", replace="Overwrite same names.")
    async def import_file(
        self, interaction: discord.Interaction[Any], file: discord.Attachment, replace: bool = False
    ) -> None:
        if file.size > MAX_ROSTER_FILE_BYTES:
            raise RosterError(f"{file.filename} is over {MAX_ROSTER_FILE_BYTES // 1024} KiB.", token=file.filename)
        text = (await file.read()).decode("utf-8", errors="replace")
        rosters = parse_roster_file(text, source=file.filename)
        saved = await self.bot.store.rosters.save_many(str(interaction.user.id), rosters, replace=replace)
        await interaction.response.send_message(
            cut(f"Imported {len(saved)} rosters: " + ", ".join(f"`@{r.name}` ({r.game})" for r in saved) + ".", 2000),
            ephemeral=True,
        )

    @app_commands.command(name="export", description="Your rosters as a YAML file (re-import it with /roster import).")
    @app_commands.describe(game="Only this game's rosters (leave out for every game).")
    @app_commands.choices(game=GAMES)
    async def export(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        rosters = await self.bot.store.rosters.visible_to(str(interaction.user.id), game=game)
        data = dump_roster_file(rosters).encode("utf-8")
        await interaction.response.send_message(
            f"{len(rosters)} rosters.", file=discord.File(io.BytesIO(data), filename="rosters.yaml"), ephemeral=True
        )

    @app_commands.command(name="samples", description="Save the sample units shipped for a game, to fight at once.")
    @app_commands.describe(game="The game whose samples to save to your rosters.")
    @app_commands.choices(game=GAMES)
    async def samples(self, interaction: discord.Interaction[Any], game: str) -> None:
        # The shipped rosters (what 'referee roster import --samples' imports) become the player's own, so the sides'
        # autocomplete offers them. A roster of theirs with a sample's name but other units is kept, never replaced.
        chosen = get_game(game)
        owner = str(interaction.user.id)
        theirs = {r.name: r for r in await self.bot.store.rosters.visible_to(owner, game=chosen.id)}
        samples = shipped_rosters(chosen.id)
        if not samples:  # every shipped game has two or more (tests/bot/test_cli_rosters.py); a new one may not yet
            await interaction.response.send_message(f"No sample units ship for {chosen.title} yet.", ephemeral=True)
            return
        new = [s for s in samples if s.name not in theirs]
        await self.bot.store.rosters.save_many(owner, new)
        lines = []
        for sample in samples:
            mine = theirs.get(sample.name)
            kept = mine is not None and mine.spec != sample.spec
            note = " (you already had a roster of this name with other units: yours is kept)" if kept else ""
            lines.append(f"`@{sample.name}`: {escape(sample.description)}{note}")
        attacker, defender = fighting_pair(chosen.id, samples[0], samples[-1])
        fight = f"/{command_path(chosen)} attacker:{attacker} defender:{defender}"
        saved = f"Saved {len(new)} to your rosters" if new else "Already in your rosters"
        embed = discord.Embed(title=cut(f"Sample units: {chosen.title}", 256), colour=INFO_COLOUR, description=cut(
            f"{saved}:\n" + "\n".join(lines) + f"\n\n**Fight now**: `{fight}`\nThe sides' suggestions offer every "
            f"roster and unit as you type `@`; `/roster show` lists a roster's units.", 4096))  # fmt: skip
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @show.autocomplete("name")
    @delete.autocomplete("name")
    async def names(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        guild = guild_of(interaction)
        game = getattr(interaction.namespace, "game", None)
        rosters = await self.bot.store.rosters.visible_to(str(interaction.user.id), game=game and get_game(game).id,
                                                    guild_id=guild)  # fmt: skip
        return [app_commands.Choice(name=r.name, value=r.name) for r in rosters if current.lower() in r.name][:25]
