"""What the league does on its own, after the moment a player acted: a report's message kept up to date (an
automatic confirmation, a second report that merged into it or clashed with it, an organiser's decision: its
status, its buttons removed), and the opponent reminded once, a day before their silence confirms a report.

A report's message is edited through the channel (the interaction's token is good for 15 minutes only, a report
waits for days); the reminder goes to the channel where the game was reported, mentioning only the opponent, or
by direct message when the channel refuses it (or the match has no channel). The store marks a reminder sent
before it is sent (``Matches.claim_reminders``): at most one per match, by one process, across restarts too.
What changes the standings (a confirmation, a dispute, an organiser's decision) is also told in the server's league
channel when its settings name one (``_ui.announce``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.access import OPERATOR
from bot.leagues.model import LeagueInfo, MatchInfo, MatchPost, Reminder
from bot.render.markdown import escape
from cogs.leagues._ui import announce, match_card, who

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

log = logging.getLogger("referee.bot")
REPORTED = {"win": "a win over you", "draw": "a draw with you", "loss": "a loss to you"}


async def sweep(bot: RefereeBot, at: datetime | None = None) -> int:
    """Confirm every report whose window has passed (by ``at``, default now), edit their messages to say so and
    announce them, and remind the opponents of reports due within a day; how many were confirmed."""
    confirmed = await bot.store.matches.confirm_due(at=at)
    await refresh_posts(bot, confirmed)
    for match in confirmed:
        log.info("league match #%d confirmed automatically", match.id)
        league = await bot.store.leagues.get(match.league_id, actor=OPERATOR)
        await announce(bot, league, match, "confirmed", "auto")  # the league channel hears of it
    await send_reminders(bot, await bot.store.matches.claim_reminders(at=at))
    return len(confirmed)


async def refresh_posts(bot: RefereeBot, matches: Sequence[MatchInfo], league: LeagueInfo | None = None) -> int:
    """Edit each match's report message to show its state now (no buttons once decided); how many were edited."""
    posts = await bot.store.matches.posts(match.id for match in matches)
    edited = 0
    for match in matches:
        post = posts.get(match.id)
        if post is None or post.channel_id is None or post.message_id is None:
            continue  # entered by an organiser, or reported before the referee kept its message
        shown = league if league is not None and league.id == match.league_id else None
        shown = shown or await bot.store.leagues.get(match.league_id, actor=OPERATOR)
        message = bot.get_partial_messageable(int(post.channel_id)).get_partial_message(int(post.message_id))
        extra: dict[str, Any] = {} if match.status == "pending" else {"view": None}
        try:
            await message.edit(embed=await match_card(bot, match, shown), **extra)
            edited += 1
        except discord.HTTPException as error:  # deleted, or a channel the bot can no longer see
            log.warning("could not edit match #%d's message: %s", match.id, error)
    return edited


def jump_url(post: MatchPost) -> str | None:
    if post.channel_id is None or post.message_id is None:
        return None
    return f"https://discord.com/channels/{post.guild_id}/{post.channel_id}/{post.message_id}"


def reminder_text(reminder: Reminder, league: LeagueInfo, reporter_name: str | None, *, direct: bool) -> str:
    """The reminder: who reported what, when it confirms itself, and where to answer. Mentions only the opponent."""
    match, post = reminder.match, reminder.post
    deadline = 0 if match.confirm_by is None else int(match.confirm_by.timestamp())
    score = f" ({escape(match.score)})" if match.score else ""  # typed by the reporter
    reporter = escape(reporter_name) if reporter_name else "Your opponent"
    to = "" if direct else f"{who(match.opponent)}: "
    link = jump_url(post)
    where = f"with the buttons on [the report]({link})" if link else "with the buttons on the report"
    what = REPORTED.get(match.result, "a game with you")
    return (f"{to}{reporter} reported {what}{score} in **{escape(league.name)}** "
            f"(match #{match.id}). It confirms itself <t:{deadline}:R> (<t:{deadline}:f>) unless you answer: "
            f"confirm or dispute it {where}.")  # fmt: skip


async def send_reminders(bot: RefereeBot, reminders: Sequence[Reminder]) -> int:
    """Remind each opponent (in the match's channel, else by direct message); how many reminders were delivered."""
    delivered = 0
    for reminder in reminders:
        match = reminder.match
        if not match.opponent.isdigit():
            continue  # a deleted user's pseudonym: nobody to remind
        league = await bot.store.leagues.get(match.league_id, actor=OPERATOR)
        known = await bot.store.leagues.names(reminder.post.guild_id, [match.reporter])
        reporter = known[match.reporter].name if match.reporter in known else None  # named, never mentioned
        channel = reminder.post.channel_id
        if channel is not None:
            try:
                await bot.get_partial_messageable(int(channel)).send(
                    reminder_text(reminder, league, reporter, direct=False),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=int(match.opponent))]),
                )
                delivered += 1
                continue
            except discord.HTTPException as error:
                log.info("match #%d's channel refused its reminder (%s): sending it directly", match.id, error)
        try:
            opponent = await bot.fetch_user(int(match.opponent))
            await opponent.send(reminder_text(reminder, league, reporter, direct=True))
            delivered += 1
        except discord.HTTPException as error:  # direct messages closed: the report itself pinged them
            log.warning("could not remind the opponent of match #%d: %s", match.id, error)
    return delivered


__all__ = ["REPORTED", "refresh_posts", "reminder_text", "send_reminders"]
