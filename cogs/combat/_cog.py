"""The combat commands: convert the arguments, look rosters up, resolve, and hand the report to the result sender."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.continuing import next_round
from bot.cooldown import RateLimit, per_user_check
from bot.data import game_with_data, parsed_side
from bot.discord_ui import send_result
from bot.rosters import expand_all
from cogs.combat._options import command_callback, short
from rules_core import all_games, resolve
from rules_core.registry import Game

if TYPE_CHECKING:
    from bot.discord_app import RefereeBot

POSITIONS_DESCRIPTION = "Per unit, in contact:within 2\", e.g. Ork Boy=6:4 | Nob=1 (default: last round's, capped)"
COOLDOWN = (6, 30.0)  # six combats per user per 30 seconds, all games together


def roster_choices(bot: RefereeBot, game: Game) -> Any:
    """Autocomplete for a side: the user's and the guild's rosters of ``game``, and each of their units."""

    async def choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        guild = None if interaction.guild_id is None else str(interaction.guild_id)
        rosters = await bot.store.rosters.visible_to(str(interaction.user.id), game=game.id, guild_id=guild)
        wanted = current.lower().lstrip("@")
        found: list[app_commands.Choice[str]] = []
        for roster in rosters:
            names = [f"@{roster.name}"] + [f"@{roster.name}/{n}" for n in range(1, roster.spec.count("|") + 2)]
            for label in names:
                if wanted in label.lower() and len(found) < 25:
                    found.append(app_commands.Choice(name=short(label), value=label))
        return found

    return choices


async def sides_and_options(
    bot: RefereeBot, interaction: discord.Interaction[Any], game: Game, attacker: str, defender: str,
    options: dict[str, Any],
) -> tuple[tuple[Any, Any], dict[str, Any]]:  # fmt: skip
    """The two sides parsed (@roster references replaced: the user's rosters, then the guild's) and the options
    given; a bad spec or an unknown roster raises here, before anything is answered."""
    owner = str(interaction.user.id)
    guild = None if interaction.guild_id is None else str(interaction.guild_id)

    async def lookup(game_id: str, name: str) -> Any:
        return await bot.store.rosters.get(owner, game_id, name, guild_id=guild)

    chosen = {name: value for name, value in options.items() if value is not None}
    attacker, defender, chosen = await expand_all(game, attacker, defender, chosen, lookup)
    return (parsed_side(game.id, attacker), parsed_side(game.id, defender)), chosen


class CombatCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.limit = RateLimit(*COOLDOWN)
        self.assault = app_commands.Group(name="assault", description="Resolve an assault: pick the game.")
        self.top_level: list[app_commands.Command[Any, ..., Any]] = []
        for game in all_games():
            name = game.id if game.command == "assault" else game.command
            command: app_commands.Command[Any, ..., Any] = app_commands.Command(
                name=name,
                description=short(game.title),
                callback=command_callback(game, partial(self.resolve, game), name=f"referee_{game.id}"),
            )
            command.autocomplete("attacker")(self.roster_choices(game))
            command.autocomplete("defender")(self.roster_choices(game))
            per_user_check(self.limit)(command)
            if game.command == "assault":
                self.assault.add_command(command)
            else:
                self.top_level.append(command)
        self.assault.add_command(self.continue_command())

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.assault)
        for command in self.top_level:
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.assault.name)
        for command in self.top_level:
            self.bot.tree.remove_command(command.name)

    def roster_choices(self, game: Game) -> Any:
        return roster_choices(self.bot, game)

    async def resolve(
        self, game: Game, interaction: discord.Interaction[Any], *, attacker: str, defender: str,
        opponent: discord.User | None = None, private: bool | None = None, **options: Any,
    ) -> None:  # fmt: skip
        with self.bot.collector.hold() as hold:  # released once the first answer is out
            sides, chosen = await sides_and_options(self.bot, interaction, game, attacker, defender, options)
            # Validated and resolved before anything is sent: a bad spec is answered privately at once.
            report = resolve(game_with_data(game), *sides, **chosen)
            interaction.extras["outcome"] = report.result.outcome
            await send_result(interaction, report, private=bool(private), hold=hold,
                              opponent=None if opponent is None else str(opponent.id))  # fmt: skip

    def continue_command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.command(name="continue", description="Fight the next round of a 40K combat that goes on.")
        @app_commands.describe(
            record="The combat's record id (in its footer).",
            attacker_positions=POSITIONS_DESCRIPTION,
            defender_positions=POSITIONS_DESCRIPTION,
            private="Only you see the answer.",
        )
        async def continue_round(
            interaction: discord.Interaction[Any], record: app_commands.Range[int, 1],
            attacker_positions: app_commands.Range[str, 1, 1000] | None = None,
            defender_positions: app_commands.Range[str, 1, 1000] | None = None,
            private: bool | None = None,
        ) -> None:  # fmt: skip
            with self.bot.collector.hold() as hold:
                stored = await self.bot.store.records.get(record)
                attacker, defender, options, positions = next_round(
                    stored, await self.bot.store.records.continued_by(record),
                    attacker_positions=attacker_positions, defender_positions=defender_positions,
                )  # fmt: skip
                report = resolve(game_with_data(stored.report.game), attacker, defender, **options)
                interaction.extras["outcome"] = report.result.outcome
                await send_result(interaction, report, private=bool(private), opponent=stored.opponent,
                                  continues=record, hold=hold, note=positions)  # fmt: skip

        per_user_check(self.limit)(continue_round)
        return continue_round
