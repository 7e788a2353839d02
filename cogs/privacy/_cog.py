"""/privacy info|export|delete-my-data for everyone, and /server-data export|delete for server managers
(docs/privacy.md).

The /server-data command is top-level, of its own, because Discord hides a command from members who lack its
``default_member_permissions`` only on a top-level command (it ignores the field on a subcommand, where it used to
be). Hiding is no check: the command itself still refuses anyone without Manage Server, even in a role a
server's admins granted the command to.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.errors import error_embed
from bot.render.colours import INFO_COLOUR

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

WHAT_IS_STORED = (
    "For every combat: the game, both sides' units, the options and the seed, the full result, who asked for it, "
    "the opponent if one was named, this server and channel, whether it was private, and the time. Voids and "
    "notes with who made them. Your saved rosters. Your /roll results with their dice. In leagues: your "
    "membership, your matches and the changes you made, and your display name in the server (for the league's "
    "chart and CSV). Your /preferences, and the changes you made to them or, as a manager, to /settings. "
    "Nothing else: no messages, avatars or other names.\n\n"
    "**Who sees it:** a public combat, this server's members (from this server only); a private one, only you "
    "and the opponent you named, not even server managers. Leagues stay in their server.\n\n"
    "Records are kept until deleted (leagues rely on them). `/privacy export` sends you everything about you; "
    "`/privacy delete-my-data` deletes it, and wherever your id is left (someone else's combat, a league, text "
    "that mentions you) it is replaced by a pseudonym. A server manager can export or delete the server's own "
    "data with `/server-data`; private combats are never part of it."
)


class PrivacyCog(commands.Cog):
    everyone = app_commands.Group(name="privacy", description="What is stored, and deleting it.")
    managers = app_commands.Group(
        name="server-data", description="This server's stored data (server managers).", guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        default_permissions=discord.Permissions(manage_guild=True),
    )  # fmt: skip

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        super().__init__()

    @everyone.command(name="info", description="What the referee stores about you, and for how long.")
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="What the referee stores", description=WHAT_IS_STORED, colour=INFO_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @everyone.command(name="export", description="Everything stored about you, as a JSON file (only you see it).")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        data = await self.bot.store.privacy.export(user=str(interaction.user.id))
        summary = (f"{counted(data['combat_records'], 'combat')}, {counted(data['rosters'], 'roster')}, "
                   f"{counted(data['dice_rolls'], 'roll')}.")  # fmt: skip
        await send_json(interaction, data, "my-referee-data.json", summary)

    @everyone.command(name="delete-my-data", description="Delete your combats, rosters and rolls for good.")
    @app_commands.describe(confirm="Set to True: there is no undo (export first if in doubt).")
    async def delete_mine(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        if not confirm:
            await interaction.response.send_message(
                embed=error_embed("Nothing deleted: add confirm:True to delete your data for good.",
                                  "/privacy delete-my-data confirm:True"), ephemeral=True)  # fmt: skip
            return
        counts = await self.bot.store.privacy.delete(user=str(interaction.user.id))
        await self.bot.server_settings.refresh(self.bot.store)  # their preferences forgotten here at once
        await interaction.response.send_message(_deleted(counts), ephemeral=True)

    @staticmethod
    async def refused(interaction: discord.Interaction[Any], doing: str) -> bool:
        """Refuse (privately) anyone without Manage Server here: being shown the command is not enough."""
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return False
        await interaction.response.send_message(
            embed=error_embed(f"Only a member with Manage Server can {doing} this server's data: being allowed to "
                              "use the /server-data command is not enough."), ephemeral=True)  # fmt: skip
        return True

    @managers.command(name="export", description="This server's combats, rolls and leagues as JSON (only you see it).")
    async def export_server(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refused(interaction, "export"):
            return
        data = await self.bot.store.privacy.export(guild=str(interaction.guild_id))
        summary = (f"{counted(data['combat_records'], 'public combat')}, {counted(data['leagues'], 'league')}, "
                   f"{counted(data['rosters'], 'shared roster')} (private combats are their players' and are not "
                   "included).")  # fmt: skip
        await send_json(interaction, data, "server-referee-data.json", summary)

    @managers.command(name="delete", description="Delete this server's combats, rolls and leagues (server managers).")
    @app_commands.describe(confirm="Set to True: there is no undo.")
    async def delete_server(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        if await self.refused(interaction, "delete"):
            return
        if not confirm:
            await interaction.response.send_message(
                embed=error_embed("Nothing deleted: add confirm:True to delete this server's combats, rolls and "
                                  "leagues for good.", "/server-data delete confirm:True"), ephemeral=True)  # fmt: skip
            return
        counts = await self.bot.store.privacy.delete(guild=str(interaction.guild_id))
        await self.bot.server_settings.refresh(self.bot.store)  # the server's settings gone here at once
        await interaction.response.send_message(_deleted(counts), ephemeral=True)


async def send_json(interaction: discord.Interaction[Any], data: dict[str, Any], filename: str, summary: str) -> None:
    """An export, as a JSON file only its asker sees, with a line saying what it holds."""
    body = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
    await interaction.response.send_message(summary, file=discord.File(io.BytesIO(body), filename=filename),
                                            ephemeral=True)  # fmt: skip


def counted(items: list[Any], noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def _deleted(counts: dict[str, int]) -> str:
    return "Deleted: " + ", ".join(f"{key.replace('_', ' ')} {n}" for key, n in counts.items()) + "."
