"""Stored combats on Discord: replay one, verify one, list recent ones, void a mistaken one, add a note to one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.delivery import full_steps, is_private
from bot.discord.errors import error_embed
from bot.discord.interactions import actor_of
from bot.discord.options import ID, game_matches
from bot.discord.results import player_mentions, result_view, stored_web_page, verify_embed
from bot.render.colours import INFO_COLOUR, VOID_COLOUR
from bot.render.embeds import history_lines, render_pages
from bot.render.markdown import cut, escape
from bot.storage.records import MAX_NOTE_CHARS, MAX_VOID_REASON_CHARS
from rules_core import get_game

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


class RecordsCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description="Show a stored combat again, exactly as it was resolved.")
    @app_commands.describe(record="The record id (in a result's footer).", private="Only you see the answer.")
    async def replay(self, interaction: discord.Interaction[Any], record: ID, private: bool | None = None) -> None:
        stored = await self.bot.store.records.get(record, actor=actor_of(interaction))
        # The void and note lines open page 1 and are sized with it (the page buttons render the same pages).
        # In the asker's preference: one line a step, or every step in full.
        pages = render_pages(stored.report, record_id=stored.id, history=history_lines(stored.history),
                             players=player_mentions(stored.requested_by, stored.opponent),
                             house_rules=stored.house_rules,
                             full_steps=full_steps(self.bot, interaction))  # fmt: skip
        embed = pages[0]
        view = result_view(stored.id, 0, len(pages), report=stored.report, web_url=stored_web_page(self.bot, stored))
        # A private combat (or one from direct messages) stays its two players': never replayed publicly. Unsaid,
        # the asker's preference or the channel's visibility decides.
        hidden = is_private(self.bot, interaction, private) or stored.personal
        await interaction.response.send_message(embed=embed, view=view, ephemeral=hidden)

    @app_commands.command(name="verify", description="Re-run a stored combat from its seed: identical, or altered.")
    @app_commands.describe(record="The record id (in a result's footer).")
    async def verify(self, interaction: discord.Interaction[Any], record: ID) -> None:
        await interaction.response.send_message(
            embed=await verify_embed(self.bot, record, actor_of(interaction)), ephemeral=True
        )

    @app_commands.command(name="history", description="Recent combats in this server (or yours), newest first.")
    @app_commands.describe(game="Only this game.", mine="Only combats you asked for.", limit="How many (1-20).")
    async def history(
        self, interaction: discord.Interaction[Any], game: str | None = None, mine: bool | None = None,
        limit: app_commands.Range[int, 1, 20] = 10,
    ) -> None:  # fmt: skip
        game_id = get_game(game).id if game else None
        actor = actor_of(interaction)
        # In a server: its combats (the public ones, and private ones you took part in); with mine, or in direct
        # messages: the combats you asked for or were named in, wherever you may see them (bot/access.py).
        party = actor.user if mine or actor.guild is None else None
        here = None if party is not None else actor.guild
        rows = await self.bot.store.records.history(actor=actor, game=game_id, guild_id=here, party=party,
                                                    limit=limit)  # fmt: skip
        if not rows:
            await interaction.response.send_message(embed=error_embed("No combats recorded here yet."), ephemeral=True)
            return
        lines = []
        for row in rows:
            void = " ~~void~~" if row.voided else ""
            when = f"<t:{int(row.created_at.timestamp())}:R>"
            lines.append(f"`#{row.id}` {row.game}: {escape(row.attacker)} v {escape(row.defender)}, "
                         f"{row.outcome.replace('_', ' ')}, winner {row.winner} · {when}{void}")  # fmt: skip
        embed = discord.Embed(title="Recent combats", description=cut("\n".join(lines), 4096), colour=INFO_COLOUR)
        embed.set_footer(text="/replay ID shows one again · /verify ID re-runs it")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @history.autocomplete("game")
    async def game_choices(
        self, _interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return game_matches(current)

    @app_commands.command(name="void", description="Void a mistaken combat: kept on record, marked void, with why.")
    @app_commands.describe(record="The record id.", reason="Why it does not count (kept in its history).")
    async def void(
        self, interaction: discord.Interaction[Any], record: ID,
        reason: app_commands.Range[str, 3, MAX_VOID_REASON_CHARS],
    ) -> None:  # fmt: skip
        embed = discord.Embed(title=f"Record #{record} is void", description=escape(reason), colour=VOID_COLOUR)
        await self.add_to_history(interaction, record, "void", reason, embed)

    @app_commands.command(name="note", description="Add a note to a combat's record (the record itself never changes).")
    @app_commands.describe(record="The record id (in a result's footer).",
                           text="The note, e.g. 'Re-rolled on the table by agreement' (shown on /replay).")  # fmt: skip
    async def note(
        self, interaction: discord.Interaction[Any], record: ID,
        text: app_commands.Range[str, 1, MAX_NOTE_CHARS],
    ) -> None:  # fmt: skip
        # Discord holds the text to MAX_NOTE_CHARS, and the store refuses a longer one whole, naming the limit.
        embed = discord.Embed(title=f"Note added to record #{record}", description=escape(text), colour=INFO_COLOUR)
        embed.set_footer(text=f"/replay record:{record} shows it with the combat")
        await self.add_to_history(interaction, record, "note", text, embed)

    async def add_to_history(
        self, interaction: discord.Interaction[Any], record: int, kind: str, text: str, said: discord.Embed
    ) -> None:
        """A void or a note added to a record's history, then ``said``. Whoever may not see the record is told it
        does not exist (the store applies bot/access.py; the tree answers privately); a void is also refused to
        whoever may not void it. A private combat's void or note is its players' business: said to its author
        alone."""
        actor = actor_of(interaction)
        stored = await self.bot.store.records.get(record, actor=actor)
        await self.bot.store.records.add_note(record, kind, actor=actor, reason=text)
        await interaction.response.send_message(embed=said, ephemeral=stored.personal)
