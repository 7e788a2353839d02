"""/help, /chart and /roll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import d20  # type: ignore[import-untyped]
import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.delivery import is_private
from bot.discord.errors import error_embed
from bot.discord.interactions import guild_of
from bot.discord.options import game_choices
from bot.render.colours import INFO_COLOUR
from bot.render.markdown import cut, escape
from cogs.tools._charts import CHARTS, ruling
from cogs.tools._help import help_message
from rules_core import all_games
from rules_core.registry import command_path

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

MAX_EXPRESSION = 200
MAX_DICE = 200
ROLLER = d20.Roller(context=d20.RollContext(max_rolls=MAX_DICE))
GAME_CHOICES = game_choices()


class ToolsCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to write units, every game's tokens and options, examples.")
    @app_commands.describe(game="A game for its tokens and options (leave out for the overview).")
    @app_commands.choices(game=GAME_CHOICES)
    async def help(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        if game is None:
            lines = [f"`/{command_path(g)}`: {g.title}" for g in all_games()]
            overview = (
                "Give both sides' units and the referee resolves the whole procedure with real dice, step by step. "
                "A side is units separated by `|`, a unit is groups separated by `;`, a group is "
                "`[N x] name: tokens`. Save units with `/roster save` (or the shipped samples with `/roster samples`) "
                "and use them as `@name` or `@name/unit`. Playing someone remotely? Add `opponent:@them agree:True`: "
                "they see both sides and accept them before a die is rolled, and the dice are committed in advance."
            )
            rest = (
                "`/replay`, `/verify`, `/history`, `/void`, `/note`: stored combats (each re-runnable from its seed). "
                "`/roll`: generic dice, kept with every die but not replayable from a seed. `/chart`: quick rulings. "
                "`/odds <game>`: the odds before you fight, same inputs. "
                "`/league`: report games in a league (your opponent confirms), standings with Elo, seasons; "
                "organisers run it with `/league-admin`. "
                "`/privacy`: what is stored, who sees it, and how to delete it. `/help game:` for one game's tokens."
            )
            text = overview + "\n\n" + "\n".join(lines) + "\n\n" + rest
            if self.bot.settings.docs_url is not None:
                text += f"\n\nEverything in detail: {self.bot.settings.docs_url}"
            embed = discord.Embed(title="The referee", colour=INFO_COLOUR, description=cut(text, 4096))
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        # One section at a time (a phone screen each), the others a menu away.
        await interaction.response.send_message(**help_message(self.bot.settings, game), ephemeral=True)

    @app_commands.command(name="chart", description="A quick ruling: the number needed for two given values.")
    @app_commands.describe(chart="Which chart.", a="First value (WS, Strength...).", b="Second value (WS, Toughness).")
    @app_commands.choices(chart=[app_commands.Choice(name=v, value=k) for k, v in CHARTS.items()])
    async def chart(
        self, interaction: discord.Interaction[Any], chart: str, a: app_commands.Range[int, 1, 10] | None = None,
        b: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:  # fmt: skip
        try:
            answer = ruling(chart, a, b)
        except ValueError as error:
            await interaction.response.send_message(
                embed=error_embed(str(error), "/chart chart:to-wound a:4 b:4"), ephemeral=True
            )
            return
        await interaction.response.send_message(embed=discord.Embed(title=CHARTS[chart], description=answer))

    @app_commands.command(name="roll", description="Roll dice (d20 syntax: 2d6+1, 4d6kh3). Kept, not replayable.")
    @app_commands.describe(expression="Dice to roll, e.g. 2d6+1 or 3d6kh1.", private="Only you see the roll.")
    async def roll(
        self, interaction: discord.Interaction[Any], expression: app_commands.Range[str, 1, MAX_EXPRESSION],
        private: bool | None = None,
    ) -> None:  # fmt: skip
        try:
            result = ROLLER.roll(expression, allow_comments=False, stringifier=d20.MarkdownStringifier())
        except (d20.RollError, RecursionError) as error:
            message = "Too many dice: at most 200 in one roll." if isinstance(error, d20.TooManyRolls) else (
                f"Cannot read the dice '{expression}': {error}")  # fmt: skip
            await interaction.response.send_message(embed=error_embed(message, "/roll 2d6+1"), ephemeral=True)
            return
        text = cut(str(result), 4000)
        private = is_private(self.bot, interaction, private)  # unsaid: the player's preference, else the channel's
        # A private roll is the roller's alone: kept with no server, so it is in their export, never the server's.
        here = not private and interaction.guild_id is not None
        roll_id = await self.bot.store.records.add_roll(
            expression, text, int(result.total), requested_by=str(interaction.user.id),
            guild_id=guild_of(interaction) if here else None,
            channel_id=str(interaction.channel_id) if here and interaction.channel_id is not None else None,
        )  # fmt: skip
        embed = discord.Embed(title=f"Roll {escape(expression)}", description=text, colour=INFO_COLOUR)
        embed.set_footer(text=f"roll #{roll_id} · kept with every die; generic rolls are not replayable from a seed")
        await interaction.response.send_message(embed=embed, ephemeral=bool(private))
