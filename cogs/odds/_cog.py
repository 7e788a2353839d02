"""/odds <game>: the same inputs as the game's command, answered with the odds.

The input is checked first, so a bad spec is answered privately at once; then the answer is deferred (Discord
wants a first response within 3 s) and the work runs in a worker thread with the chart, so the event loop keeps
answering everyone else. The work has a time budget of BOT_TIME_LIMIT seconds, under the CLI's default: exact
when it fits, otherwise Monte Carlo for as many trials as fit, the answer saying how many, so the deferred
"thinking..." turns into the answer a few seconds later whatever the input.
"""

from __future__ import annotations

import asyncio
import inspect
import io
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.data import catalogue
from bot.discord.cooldown import RateLimit, per_user_check
from bot.discord.delivery import is_private
from bot.discord.options import DESCRIPTION, command_callback
from bot.discord.sides import roster_choices, sides_and_options
from bot.render.embeds import odds_embed
from bot.render.markdown import cut
from bot.render.odds import odds_chart
from bot.render.summary import house_rules_text
from rules_core import all_games
from rules_core.odds import DEFAULT_TIME_LIMIT, Odds, exact_refusal, odds
from rules_core.options import validate_options
from rules_core.registry import Game, command_path

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

BOT_TIME_LIMIT = min(4.0, DEFAULT_TIME_LIMIT)  # seconds of computing; the chart takes a moment more
LIMIT = (3, 30.0)  # three odds per user per 30 seconds: each can take a core for a moment
Method = Literal["auto", "exact", "monte-carlo"]
EXTRAS = [
    inspect.Parameter("method", inspect.Parameter.KEYWORD_ONLY, annotation=Method, default=None),
    inspect.Parameter("private", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=None),
]


def compute(game: Game, attacker: Any, defender: Any, options: dict[str, Any], method: str) -> tuple[Odds, bytes]:
    """The odds and their chart: run in a worker thread."""
    result = odds(game, attacker, defender, method=method, time_limit=BOT_TIME_LIMIT, **options)
    return result, odds_chart(result, f"{game.title}: odds")


class OddsCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.limit = RateLimit(*LIMIT)
        self.group = app_commands.Group(name="odds", description="The odds before you commit: pick the game.")
        for game in all_games():
            command: app_commands.Command[Any, ..., Any] = app_commands.Command(
                name=game.id,
                description=cut(
                    f"Odds of {game.title} (/{command_path(game)})", DESCRIPTION
                ),  # found by its command too
                callback=command_callback(game, partial(self.run, game), name=f"odds_{game.id}", extras=EXTRAS),
            )
            command.autocomplete("attacker")(roster_choices(bot, game))
            command.autocomplete("defender")(roster_choices(bot, game))
            per_user_check(self.limit)(command)
            self.group.add_command(command)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    async def run(
        self, game: Game, interaction: discord.Interaction[Any], *, attacker: str, defender: str,
        method: str | None = None, private: bool | None = None, **options: Any,
    ) -> None:  # fmt: skip
        # The options given, then the house rules of this server or channel: the odds of the game as played here.
        sides, chosen, house = await sides_and_options(self.bot, interaction, game, attacker, defender,
                                                       options=options)  # fmt: skip
        bound = catalogue().game(game)
        validate_options(bound.options, chosen)  # every input error is answered now, privately
        how = method or "auto"
        refused = exact_refusal(bound, *sides) if how == "exact" else None
        if refused is not None:
            raise refused
        await interaction.response.defer(thinking=True, ephemeral=is_private(self.bot, interaction, private))
        work = partial(compute, bound, *sides, chosen, how)
        result, png = await asyncio.get_running_loop().run_in_executor(None, work)
        interaction.extras["outcome"] = result.method
        await interaction.edit_original_response(
            embed=odds_embed(result, game.title, house_rules=house_rules_text(chosen, house)),
            attachments=[discord.File(io.BytesIO(png), filename="odds.png", description="The odds as a chart")],
        )


__all__ = ["BOT_TIME_LIMIT", "OddsCog", "compute"]
