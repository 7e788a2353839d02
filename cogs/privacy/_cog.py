"""/privacy info|export|delete-my-data for everyone, and /server-data delete for server managers (docs/privacy.md).

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
    "the opponent if one was named, this server and channel, and the time. Voids and notes with who made them. "
    "Your saved rosters. Your /roll results with their dice. In leagues: your membership, your matches and the "
    "changes you made. Nothing else: no messages, names or avatars.\n\n"
    "Records are kept until deleted (leagues rely on them). `/privacy export` sends you everything about you; "
    "`/privacy delete-my-data` deletes it (where you were only someone's opponent, your id is replaced). "
    "A server manager can delete the server's records with `/server-data delete`."
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
        body = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
        await interaction.response.send_message(
            f"{len(data['combat_records'])} combats, {len(data['rosters'])} rosters, {len(data['dice_rolls'])} rolls.",
            file=discord.File(io.BytesIO(body), filename="my-referee-data.json"),
            ephemeral=True,
        )

    @everyone.command(name="delete-my-data", description="Delete your combats, rosters and rolls for good.")
    @app_commands.describe(confirm="Set to True: there is no undo (export first if in doubt).")
    async def delete_mine(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        if not confirm:
            await interaction.response.send_message(
                embed=error_embed("Nothing deleted: add confirm:True to delete your data for good.",
                                  "/privacy delete-my-data confirm:True"), ephemeral=True)  # fmt: skip
            return
        counts = await self.bot.store.privacy.delete(user=str(interaction.user.id))
        await interaction.response.send_message(_deleted(counts), ephemeral=True)

    @managers.command(name="delete", description="Delete this server's combats, rolls and leagues (server managers).")
    @app_commands.describe(confirm="Set to True: there is no undo.")
    async def delete_server(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                embed=error_embed(
                    "Only a member with Manage Server can delete this server's data: being allowed to use "
                    "the /server-data command is not enough."
                ),
                ephemeral=True,
            )
            return
        if not confirm:
            await interaction.response.send_message(
                embed=error_embed("Nothing deleted: add confirm:True to delete this server's combats, rolls and "
                                  "leagues for good.", "/server-data delete confirm:True"), ephemeral=True)  # fmt: skip
            return
        counts = await self.bot.store.privacy.delete(guild=str(interaction.guild_id))
        await interaction.response.send_message(_deleted(counts), ephemeral=True)


def _deleted(counts: dict[str, int]) -> str:
    return "Deleted: " + ", ".join(f"{key.replace('_', ' ')} {n}" for key, n in counts.items()) + "."
