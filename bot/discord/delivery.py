"""Where a result goes and how loud it is, as the server's settings and the player's preferences say
(bot/server_settings): written once for every command that answers with a result.

- **Visibility** (:func:`is_private`): an explicit ``private:`` always wins; else the player's own preference; else
  the channel's (or the server's) ``visibility``; else public.
- **Steps** (:func:`full_steps`): the player who asks (or presses a page button) sees one line a step (``compact``,
  the default) or every step with its dice (``full``).
- **Threads** (:func:`start_thread`, :func:`post_to_thread`): with ``threads`` on, a public result longer than one
  page keeps its summary (page 1 with its buttons) in the channel; a thread started on that message holds every
  page and the full log.
- **Results channel** (:func:`post_copy`): each public result from elsewhere in the server is copied there (its
  summary and a link back), once recorded.

Nothing here may cost the player their result: a thread or a channel Discord refuses (deleted, no permission) is
logged in one line and the result stays where it was asked, as without the setting.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.client import BotServices
from bot.discord.interactions import guild_of, settings_channel
from bot.render.embeds import result_heading
from bot.render.markdown import cut
from bot.server_settings.model import Effective
from rules_core.report import Report

log = logging.getLogger("referee.bot")
THREAD_NAME = 100  # Discord's limit on a thread's name
LINK_LABEL = "Go to the result"


def is_private(bot: BotServices, interaction: discord.Interaction[Any], explicit: bool | None) -> bool:
    """Whether a result is private: ``private:`` as given; else the asker's preference; else the channel's or the
    server's visibility (bot/server_settings/model.py ``effective``); else public."""
    if explicit is not None:
        return explicit
    preferred = bot.server_settings.preferences(str(interaction.user.id)).private
    if preferred is not None:
        return preferred
    return where(bot, interaction).private


def full_steps(bot: BotServices, interaction: discord.Interaction[Any]) -> bool:
    """Whether whoever acts in ``interaction`` prefers every step with its dice to one line a step."""
    return bot.server_settings.preferences(str(interaction.user.id)).full_steps


def where(bot: BotServices, interaction: discord.Interaction[Any]) -> Effective:
    """The settings that apply in the interaction's channel, or in a thread its channel's (none in direct
    messages)."""
    return bot.server_settings.effective(guild_of(interaction), settings_channel(interaction))


def shared(interaction: discord.Interaction[Any], private: bool) -> bool:
    """A result the server sees: public and in a server (a direct message has no channel of the server's)."""
    return not private and interaction.guild_id is not None


def jump_url(interaction: discord.Interaction[Any], message_id: int) -> str:
    return f"https://discord.com/channels/{interaction.guild_id}/{interaction.channel_id}/{message_id}"


def thread_name(report: Report, record_id: int | None) -> str:
    name = result_heading(report) + (f" · #{record_id}" if record_id is not None else "")
    return cut(name, THREAD_NAME)


async def start_thread(interaction: discord.Interaction[Any], message_id: int, name: str) -> discord.Thread | None:
    """A thread started on the result's message (Discord's "Start Thread from Message"); None, logged in one line,
    when Discord refuses (no permission to create threads, the message or channel gone)."""
    if interaction.channel_id is None or interaction.guild_id is None:
        return None
    channel = bot_client(interaction).get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
    try:
        return await channel.get_partial_message(message_id).create_thread(name=name)
    except (discord.HTTPException, ValueError) as error:
        log.warning("no thread for the result in channel %s: %s", interaction.channel_id, error)
        return None


async def post_to_thread(thread: discord.Thread, pages: Sequence[discord.Embed], files: list[discord.File]) -> bool:
    """Every page, one message each (a page is near a message's 6,000 characters), the full log with the last.
    False, logged in one line, when the thread refuses them (no Send Messages in Threads): the caller then keeps
    the log with the result in the channel, as without threads."""
    try:
        for number, page in enumerate(pages, start=1):
            last = number == len(pages)
            await thread.send(embed=page, files=files if last else [], allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.warning("the result's thread %s refused its pages: %s", thread.id, error)
        return False
    return True


async def post_copy(
    interaction: discord.Interaction[Any], settings: Effective, summary: discord.Embed, message_id: int | None
) -> bool:
    """The result's summary in the server's results channel, with a link back to the result; not when the result
    was asked in the results channel itself. False, logged in one line, when that channel refuses it."""
    target = settings.results_channel
    if target is None or not target.isdigit() or target == str(interaction.channel_id):
        return False
    view = discord.ui.View(timeout=None)
    if message_id is not None:
        view.add_item(discord.ui.Button(label=LINK_LABEL, url=jump_url(interaction, message_id)))
    channel = bot_client(interaction).get_partial_messageable(int(target), guild_id=interaction.guild_id)
    try:
        await channel.send(embed=summary, view=view, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.warning("the results channel %s refused a copy of a result: %s", target, error)
        return False
    return True


def bot_client(interaction: discord.Interaction[Any]) -> discord.Client:
    client: discord.Client = interaction.client
    return client


__all__ = [
    "full_steps",
    "is_private",
    "post_copy",
    "post_to_thread",
    "shared",
    "start_thread",
    "thread_name",
    "where",
]
