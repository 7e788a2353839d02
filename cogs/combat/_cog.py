"""The combat commands: convert the arguments, look rosters up, resolve, and hand the report to the result sender."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.continuing import next_round
from bot.data import catalogue
from bot.discord import challenges
from bot.discord.cooldown import RateLimit, per_user_check
from bot.discord.delivery import is_private
from bot.discord.interactions import actor_of
from bot.discord.options import DESCRIPTION, ID, command_callback
from bot.discord.results import player_mentions, send_result
from bot.discord.sides import roster_choices, sides_and_options
from bot.render.markdown import cut
from rules_core import RefereeError, all_games, get_game, resolve
from rules_core.registry import Game
from rules_core.spec import reading_canonical

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

POSITIONS_DESCRIPTION = "Per unit, in contact:within 2\", e.g. Ork Boy=6:4 | Nob=1 (default: last round's, capped)"
COOLDOWN = (6, 30.0)  # six combats per user per 30 seconds, all games together


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
                description=cut(game.title, DESCRIPTION),
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
        opponent: discord.User | None = None, private: bool | None = None, agree: bool | None = None,
        **options: Any,
    ) -> None:  # fmt: skip
        with self.bot.collector.hold() as hold:  # released once the first answer is out
            # Named opponent and agree:true (or the server's setting): a challenge, resolved once both accept.
            if challenges.wanted(self.bot, interaction, game, opponent=opponent, agree=agree, private=private):
                assert opponent is not None
                await challenges.post_challenge(self.bot, interaction, game, attacker=attacker, defender=defender,
                                                options=options, opponent=opponent, hold=hold)  # fmt: skip
                return
            # The options given, then the house rules of this server or channel (bot/discord/sides.py).
            sides, chosen, house = await sides_and_options(self.bot, interaction, game, attacker, defender,
                                                           options=options)  # fmt: skip
            # Validated and resolved before anything is sent: a bad spec is answered privately at once.
            report = resolve(catalogue().game(game), *sides, **chosen)
            interaction.extras["outcome"] = report.result.outcome
            await send_result(interaction, report, private=is_private(self.bot, interaction, private), hold=hold,
                              house_rules=house,
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
            interaction: discord.Interaction[Any], record: ID,
            attacker_positions: app_commands.Range[str, 1, 1000] | None = None,
            defender_positions: app_commands.Range[str, 1, 1000] | None = None,
            private: bool | None = None,
        ) -> None:  # fmt: skip
            with self.bot.collector.hold() as hold:
                actor = actor_of(interaction)
                stored = await self.bot.store.records.get(record, actor=actor)
                player = actor.user in (stored.requested_by, stored.opponent)
                if private and not player:  # its players would lose sight of their own combat's next round
                    raise RefereeError(f"Only the players of combat #{record} can continue it privately.",
                                       token=str(record))  # fmt: skip
                continued = await self.bot.store.records.continued_by(record, actor=actor)
                # The stored combat and its survivors are in the canonical form, maybe longer than the input limit.
                with reading_canonical():
                    attacker, defender, options, positions = next_round(
                        stored, continued, attacker_positions=attacker_positions,
                        defender_positions=defender_positions,
                    )  # fmt: skip
                    report = resolve(catalogue().game(stored.report.game), attacker, defender, **options)
                if stored.agreed_json is not None:  # an agreed combat's next round is agreed too: a challenge
                    if private:
                        raise RefereeError(f"Combat #{record} was agreed: its next round is a challenge, shown in the "
                                           "channel to both players. Drop private:True.", token="private")  # fmt: skip
                    await challenges.post_next_round(self.bot, interaction, get_game(report.game), record=stored,
                                                     sides=(attacker, defender), options=options,
                                                     positions=positions, hold=hold)  # fmt: skip
                    return
                interaction.extras["outcome"] = report.result.outcome
                # A personal combat's next round is personal too, and stays its two players' whoever of them asks.
                # Unsaid, the asker's preference or the channel's visibility decides, as for a new combat; but never
                # for someone who did not play it (a private round would hide it from its own players).
                other = stored.requested_by if actor.user == stored.opponent else stored.opponent
                hidden = is_private(self.bot, interaction, private) if player else bool(private)
                # The record's options carry on (today's house rules are not applied), and so do their origins.
                await send_result(interaction, report, private=hidden or stored.personal, opponent=other,
                                  continues=record, hold=hold, note=positions, house_rules=stored.house_rules,
                                  players=player_mentions(stored.requested_by, stored.opponent),
                                  sides=(stored.requested_by, stored.opponent))  # fmt: skip

        per_user_check(self.limit)(continue_round)
        return continue_round
