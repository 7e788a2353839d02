"""What the bot sends for a result: the result message, with paging and verify buttons that survive restarts.

The buttons are DynamicItems: their custom ids carry the record id and page, so a click after a restart reloads
the stored record and renders the asked-for page. Nothing lives only in memory.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from bot.access import Actor
from bot.discord.client import BotServices
from bot.discord.collector import CollectorHold
from bot.discord.errors import error_embed, new_error_id, referee_error_embed
from bot.discord.interactions import actor_of, guild_of
from bot.render.colours import ERROR_COLOUR, GREEN, YELLOW
from bot.render.embeds import history_lines, render_pages
from bot.render.markdown import report_markdown
from bot.render.summary import Players
from bot.storage.failures import StorageError, is_storage_failure, storage_error
from bot.storage.records import AlreadyContinued, RecordRequest
from bot.verification import Verdict, verify
from rules_core import RefereeError
from rules_core.report import Report

log = logging.getLogger("referee.bot")


def player_mentions(requested_by: str | None, opponent: str | None) -> Players:
    """The attacker's and the defender's players as Discord mentions (``<@id>``): whoever asked for the combat
    fights as the attacker, the ``opponent`` option names the defender. An id that is not a Discord user's (a
    combat recorded from the terminal) names nobody."""

    def mention(who: str | None) -> str | None:
        return f"<@{who}>" if who and who.isdigit() else None

    return mention(requested_by), mention(opponent)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:page:(?P<record>\d+):(?P<page>\d+)"
):
    def __init__(self, record_id: int, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"referee:page:{record_id}:{page}",
                disabled=disabled,
            )
        )
        self.record_id, self.page = record_id, page

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(int(match["record"]), int(match["page"]), label="page")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The press of whoever asked for the message (the combat, or its /replay) turns the shared message's page;
        anyone else's shows them the page privately (with buttons of their own), so nobody pages someone else's
        result or fights over one message."""
        bot: BotServices = interaction.client
        try:
            stored = await bot.store.records.get(self.record_id, actor=actor_of(interaction))
        except (RefereeError, StorageError) as error:  # hidden or missing; or the database failed
            await interaction.response.send_message(embed=button_error_embed(error), ephemeral=True)
            return
        pages = render_pages(stored.report, record_id=stored.id, history=history_lines(stored.history),
                             players=player_mentions(stored.requested_by, stored.opponent))  # fmt: skip
        page = max(0, min(self.page, len(pages) - 1))
        view = result_view(stored.id, page, len(pages))
        message = interaction.message
        own_copy = message is not None and message.flags.ephemeral  # a private copy: only its presser sees it
        asked = message.interaction_metadata if message is not None else None
        owner = str(asked.user.id) if asked is not None else stored.requested_by
        if str(interaction.user.id) == owner or own_copy:
            await interaction.response.edit_message(embed=pages[page], view=view)
            return
        extra: dict[str, Any] = {} if view is None else {"view": view}
        await interaction.response.send_message(embed=pages[page], ephemeral=True, **extra)


class VerifyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:verify:(?P<record>\d+)"):
    def __init__(self, record_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Verify", style=discord.ButtonStyle.primary, custom_id=f"referee:verify:{record_id}"
            )
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VerifyButton:
        return cls(int(match["record"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: BotServices = interaction.client
        try:
            embed = await verify_embed(bot, self.record_id, actor_of(interaction))
        except (RefereeError, StorageError) as error:  # hidden or missing; or the database failed
            embed = button_error_embed(error)
        await interaction.response.send_message(embed=embed, ephemeral=True)


def button_error_embed(error: RefereeError | StorageError) -> discord.Embed:
    """A button's answer when it cannot act (a button has no command tree's error handler): a record one may not
    see reads like one that does not exist; a database failure is one sentence, its traceback logged by error id."""
    if isinstance(error, RefereeError):
        return referee_error_embed(error)
    error_id = new_error_id()
    log.error("error %s in a button: %s", error_id, error, exc_info=error)
    return error_embed(error.for_player(error_id))


VERDICT_COLOURS = {Verdict.IDENTICAL: GREEN, Verdict.ALTERED: ERROR_COLOUR, Verdict.OTHER_ENGINE: YELLOW}
VERDICT_TITLES = {Verdict.IDENTICAL: "verified", Verdict.ALTERED: "does NOT verify",
                  Verdict.OTHER_ENGINE: "cannot be re-run here"}  # fmt: skip


async def verify_embed(bot: BotServices, record_id: int, actor: Actor) -> discord.Embed:
    """Re-run a stored combat (one ``actor`` may see) from its seed and inputs: identical, or altered."""
    verification = verify(await bot.store.records.get(record_id, actor=actor))
    return discord.Embed(
        title=f"Record #{record_id} {VERDICT_TITLES[verification.verdict]}",
        description=verification.message,
        colour=VERDICT_COLOURS[verification.verdict],
    )


def result_view(record_id: int | None, page: int, pages: int) -> discord.ui.View | None:
    if record_id is None:
        return None
    view = discord.ui.View(timeout=None)
    if pages > 1:
        # A custom id must be valid and unique in the message: the disabled ends point at their own page.
        view.add_item(PageButton(record_id, max(page - 1, 0), label="◀ Previous", disabled=page == 0))
        view.add_item(PageButton(record_id, min(page + 1, pages - 1), label="Next ▶", disabled=page >= pages - 1))
    view.add_item(VerifyButton(record_id))
    return view


async def record(
    bot: BotServices, report: Report, interaction: discord.Interaction[Any], *, opponent: str | None,
    private: bool, continues: int | None = None,
) -> tuple[int | None, str | None]:  # fmt: skip
    """Store the result; any storage failure is logged (traceback and error id) and returned as the reason it is
    'not recorded' (what failed, in a player's words, and the error id), never raised."""
    request = RecordRequest(
        report,
        requested_by=str(interaction.user.id),
        opponent=opponent,
        guild_id=guild_of(interaction),
        channel_id=None if interaction.channel_id is None else str(interaction.channel_id),
        continues=continues,
        private=private or interaction.guild_id is None,  # resolved in direct messages: no server's to show
    )
    try:
        record_id = await bot.writer.record(request)
    except AlreadyContinued as error:
        return None, str(error)
    except Exception as error:
        if not is_storage_failure(error):
            raise
        failure = storage_error(error, bot.store.url)
        error_id = new_error_id()
        log.error("error %s: combat not recorded: %s", error_id, failure, exc_info=error)
        return None, f"{failure.reason}; error id {error_id}"
    return record_id, None


async def send_result(
    interaction: discord.Interaction[Any], report: Report, *, private: bool, opponent: str | None,
    continues: int | None = None, hold: CollectorHold | None = None, note: str | None = None,
    players: Players | None = None,
) -> int | None:  # fmt: skip
    """Show the (already valid) result at once, then store it and edit in its record id and buttons.

    The summary names the players (``players``: the attacker's and the defender's mentions; by default the
    requester and the ``opponent``); a public result pings the opponent once, in its content, and nobody else.

    Shown first, stored second, as on the command line: the answer never waits on the database, so Discord's
    3-second deadline is never at risk, and a failed write only changes the footer to "not recorded".
    """
    bot: BotServices = interaction.client
    task = asyncio.current_task()
    if task is not None:
        bot.in_flight.add(task)
        task.add_done_callback(bot.in_flight.discard)
    players = players or player_mentions(str(interaction.user.id), opponent)
    first = render_pages(report, pending=True, players=players)
    ping = opponent if opponent and opponent.isdigit() and not private else None
    content = " ".join(part for part in (f"<@{ping}>" if ping else None, note) if part) or None
    mentions = discord.AllowedMentions.none()
    if ping:  # the opponent alone: never @everyone, a role or anyone a unit's name might spell
        mentions.users = [discord.Object(id=int(ping))]
    await interaction.response.send_message(content=content, embed=first[0], ephemeral=private,
                                            allowed_mentions=mentions)  # fmt: skip
    if hold is not None:
        hold.release()  # the first answer is out: the collector may catch up
    record_id, problem = await record(bot, report, interaction, opponent=opponent, private=private,
                                      continues=continues)  # fmt: skip
    pages = render_pages(report, record_id=record_id, not_recorded=problem, players=players)
    files = []
    if len(pages) > 1 or record_id is None:
        name = f"combat-{record_id}.md" if record_id is not None else "combat.md"
        text = report_markdown(report, record_id=record_id).encode("utf-8")
        files.append(discord.File(io.BytesIO(text), filename=name, description="The full combat log"))
    view = result_view(record_id, 0, len(pages))
    extra: dict[str, Any] = {} if view is None else {"view": view}
    await interaction.edit_original_response(embed=pages[0], attachments=files, **extra)
    return record_id


__all__ = ["PageButton", "VerifyButton", "player_mentions", "result_view", "send_result", "verify_embed"]
