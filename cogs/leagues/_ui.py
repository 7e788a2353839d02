"""The league's messages: a match with its Confirm / Dispute buttons (persistent), standings, history, audit."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.errors import error_embed, new_error_id, referee_error_embed
from bot.discord.interactions import actor_of
from bot.discord.results import button_error_embed
from bot.leagues.export import matches_csv, settings_csv, standings_csv
from bot.leagues.model import AuditEntry, LeagueInfo, MatchInfo, Standings
from bot.leagues.standings import TIE_BREAKERS
from bot.render.colours import AUDIT_COLOUR, INFO_COLOUR, MATCH_STATUS_COLOURS
from bot.render.markdown import cut, escape
from bot.storage.failures import StorageError
from rules_core import RefereeError

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

log = logging.getLogger("referee.bot")
VERBS = {"win": "beat", "draw": "drew with", "loss": "lost to"}
DESCRIPTION_ROOM = 3900  # of Discord's 4096, leaving room for a closing line


def who(user: str) -> str:
    """A mention for a Discord id (it shows the name, and never pings inside an embed); pseudonyms as they are."""
    return f"<@{user}>" if user.isdigit() else user


def match_summary(match: MatchInfo) -> str:
    score = f" ({escape(match.score)})" if match.score else ""  # typed by the reporter
    return f"{who(match.reporter)} {VERBS[match.result]} {who(match.opponent)}{score}"


def settings_line(league: LeagueInfo) -> str:
    """A league's settings as its organisers set them, in one sentence."""
    points = league.points
    agreed = (" Reports count only combats both players agreed to (`agree:true` with `opponent:`)."
              if league.require_agreed else "")  # fmt: skip
    return (f"Points {points.win}/{points.draw}/{points.loss}; reports confirm themselves after "
            f"{league.confirm_hours} hours.{agreed}")  # fmt: skip


AGREED_MARK = "✔ agreed"  # after a combat both players agreed to (issue 24): a mark that needs no colour


def combats_line(combats: Sequence[int], agreed: Collection[int]) -> str:
    """A match's combats, each both players agreed to marked: ``#12 ✔ agreed · #15``."""
    return " · ".join(f"#{c} {AGREED_MARK}" if c in agreed else f"#{c}" for c in combats)


def match_embed(match: MatchInfo, league: LeagueInfo, agreed: Collection[int] = ()) -> discord.Embed:
    """A match as its message shows it; ``agreed``: which of its combats both players agreed to (marked)."""
    embed = discord.Embed(
        title=f"Match #{match.id}: {match.status}",
        description=match_summary(match),
        colour=MATCH_STATUS_COLOURS.get(match.status, INFO_COLOUR),
    )
    if match.combats:
        embed.add_field(name="Combats", value=combats_line(match.combats, agreed), inline=True)
    if match.notes:
        embed.add_field(name="Notes", value=cut(escape(match.notes), 1024), inline=False)
    if match.status == "pending" and match.confirm_by is not None:
        deadline = int(match.confirm_by.timestamp())
        waiting = f"{who(match.opponent)} to confirm or dispute; it confirms itself <t:{deadline}:R>."
        embed.add_field(name="Waiting for", value=waiting, inline=False)
    elif match.status == "disputed":
        embed.add_field(name="Disputed", value=f"An organiser settles it: `/league-admin resolve match:{match.id}`.",
                        inline=False)  # fmt: skip
    elif match.decided_by is not None:
        decided = "automatically (nobody answered in time)" if match.decided_by == "auto" else who(match.decided_by)
        embed.add_field(name="Decided by", value=decided, inline=False)
    embed.set_footer(text=f"{league.name} · season {match.season} · match #{match.id}")
    return embed


async def match_card(bot: RefereeBot, match: MatchInfo, league: LeagueInfo) -> discord.Embed:
    """:func:`match_embed` with its agreed combats looked up in the store."""
    agreed = await bot.store.matches.agreements(match.combats) if match.combats else {}
    return match_embed(match, league, agreed)


def news_embed(match: MatchInfo, league: LeagueInfo, what: str, by: str | None) -> discord.Embed:
    """League news for the league channel, one short embed: ``Match #3 confirmed``, who played and the result, and
    who did it (``by``: a user id, or ``auto`` when nobody answered in time). Names are mentions (they never ping
    inside an embed)."""
    lines = [match_summary(match)]
    if by == "auto":
        lines.append(f"{what.capitalize()} automatically: nobody answered in time.")
    elif by is not None:
        lines.append(f"{what.capitalize()} by {who(by)}.")
    embed = discord.Embed(title=f"Match #{match.id} {what}", description="\n".join(lines),
                          colour=MATCH_STATUS_COLOURS.get(match.status, INFO_COLOUR))  # fmt: skip
    embed.set_footer(text=cut(f"{league.name} · season {match.season} · /league standings", 2048))
    return embed


async def announce(
    bot: RefereeBot, league: LeagueInfo, match: MatchInfo, what: str, by: str | None, *, origin: int | None = None
) -> bool:
    """League news (a confirmation, a dispute, an organiser's decision: what changes the standings) in the server's
    league channel, if it has one, mentioning nobody; not when it was just said in that very channel (``origin``:
    where the news was answered). False, logged in one line, when the channel refuses it."""
    target = bot.server_settings.effective(league.guild_id, None).league_channel
    if target is None or not target.isdigit() or (origin is not None and str(origin) == target):
        return False
    channel = bot.get_partial_messageable(int(target), guild_id=int(league.guild_id))
    try:
        await channel.send(embed=news_embed(match, league, what, by), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.warning("the league channel %s refused news of match #%d: %s", target, match.id, error)
        return False
    return True


def match_view(match: MatchInfo) -> discord.ui.View | None:
    if match.status != "pending":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(MatchButton("confirm", match.id))
    view.add_item(MatchButton("dispute", match.id))
    return view


class MatchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"referee:league:(?P<action>confirm|dispute):(?P<match>\d+)",
):
    """Confirm or Dispute on a reported match. The custom id holds everything, so it works after a restart."""

    def __init__(self, action: str, match_id: int) -> None:
        style = discord.ButtonStyle.success if action == "confirm" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(label=action.capitalize(), style=style, custom_id=f"referee:league:{action}:{match_id}")
        )
        self.action, self.match_id = action, match_id

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MatchButton:
        return cls(match["action"], int(match["match"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: RefereeBot = interaction.client
        actor = actor_of(interaction)
        try:
            if self.action == "confirm":
                changed = await bot.store.matches.confirm(self.match_id, actor=actor)
            else:
                changed = await bot.store.matches.dispute(self.match_id, actor=actor, reason="disputed with the button")
        except RefereeError as error:  # a second click, or not the opponent (a button has no command tree's handler)
            await interaction.response.send_message(embed=referee_error_embed(error), ephemeral=True)
            return
        except StorageError as error:  # nothing changed: the presser is told so (discord.py would say nothing)
            await interaction.response.send_message(embed=button_error_embed(error), ephemeral=True)
            return
        what = "confirmed" if self.action == "confirm" else "disputed"
        try:
            league = await bot.store.leagues.get(changed.league_id, actor=actor)
        except StorageError as error:  # done, but the card cannot be drawn now: said, never silence
            error_id = new_error_id()
            log.error("error %s redrawing match #%d: %s", error_id, changed.id, error, exc_info=error)
            await interaction.response.send_message(embed=error_embed(
                f"Match #{changed.id} is {what}, but its message could not be updated: {error.reason}. "
                f"If it persists, give the bot's operator this error id: {error_id}."), ephemeral=True)  # fmt: skip
            return
        await interaction.response.edit_message(embed=await match_card(bot, changed, league), view=None)
        await announce(bot, league, changed, what, actor.user, origin=interaction.channel_id)


def league_page_view(bot: RefereeBot, standings: Standings) -> discord.ui.View:
    """A "Web page" link to the standings' page (``{WEB_BASE_URL}/l/{id}``) when the bot knows the pages' address
    and the league's server publishes them (``/settings web public``); else an empty view (no button)."""
    league, season = standings.league, standings.season
    view = discord.ui.View(timeout=None)
    base = bot.settings.web_base_url
    if base is not None and bot.server_settings.effective(league.guild_id, None).web_public:
        query = "" if season == league.season else f"?season={season}"
        view.add_item(discord.ui.Button(label="Web page", style=discord.ButtonStyle.link,
                                        url=f"{base}/l/{league.id}{query}"))  # fmt: skip
    return view


def standings_embed(standings: Standings) -> discord.Embed:
    league = standings.league
    state = "open" if standings.season == league.season and league.season_open else "ended"
    lines: list[str] = []
    used = 0
    for row in standings.rows:
        line = (f"**{row.rank}.** {who(row.player)} · **{row.points}** pts · {row.played} played "
                f"({row.won}-{row.drawn}-{row.lost}) · {row.rating:.0f}")  # fmt: skip
        if used + len(line) + 1 > DESCRIPTION_ROOM:
            lines.append(f"… and {len(standings.rows) - len(lines)} more: `/league export` has the whole table.")
            break
        lines.append(line)
        used += len(line) + 1
    embed = discord.Embed(
        title=cut(f"{escape(league.name)}: season {standings.season} ({state})", 256),
        description="\n".join(lines) or "Nobody has joined yet: `/league join`.",
        colour=INFO_COLOUR,
    )
    embed.set_footer(text=f"W-D-L · rating: Elo from 1500, K 32 · order: {', then '.join(TIE_BREAKERS)}")
    return embed


def history_embed(league: LeagueInfo, matches: Sequence[MatchInfo], player: str | None) -> discord.Embed:
    lines = [f"`#{m.id}` <t:{int(m.created_at.timestamp())}:d> {match_summary(m)} · {m.status}" for m in matches] or [
        "No matches yet."
    ]
    title = f"{escape(league.name)}: matches" + ("" if player is None else " of one player")
    return discord.Embed(title=cut(title, 256), description=cut("\n".join(lines), 4096), colour=INFO_COLOUR)


def export_files(
    league: LeagueInfo, table: Standings, matches: Sequence[MatchInfo], names: dict[str, str], agreed: Collection[int]
) -> list[discord.File]:
    """/league export's CSV files: every match (its agreed combats marked), a season's standings, the settings."""
    texts = {
        f"league-{league.id}-matches.csv": matches_csv(matches, names, agreed=agreed),
        f"league-{league.id}-season-{table.season}-standings.csv": standings_csv(table.rows, names),
        f"league-{league.id}-settings.csv": settings_csv(league),
    }
    return [discord.File(io.BytesIO(text.encode("utf-8")), filename=name) for name, text in texts.items()]


USER_KEYS = ("reporter", "opponent", "decided_by", "organiser")


def shown(key: str, value: Any) -> str:
    if value is None or value == "":
        return "—"
    if key in USER_KEYS and isinstance(value, str):
        return "the bot" if value == "auto" else who(value)
    if isinstance(value, list):
        return "/".join(map(str, value)) or "—"
    return str(value)


def audit_line(entry: AuditEntry) -> str:
    about = f" match #{entry.match_id}" if entry.match_id is not None else ""
    actor = "the bot (time ran out)" if entry.actor == "auto" else who(entry.actor)
    moved = entry.changes()
    change = (
        " · " + ", ".join(f"{key}: {shown(key, old)} → {shown(key, new)}" for key, old, new in moved) if moved else ""
    )
    reason = f" · “{escape(entry.reason)}”" if entry.reason else ""
    return f"<t:{int(entry.at.timestamp())}:f> **{entry.kind}**{about} by {actor}{change}{reason}"


def audit_embed(league: LeagueInfo, entries: Sequence[AuditEntry]) -> discord.Embed:
    lines = [audit_line(entry) for entry in entries] or ["Nothing yet."]
    return discord.Embed(title=cut(f"{escape(league.name)}: audit log", 256), description=cut("\n".join(lines), 4096),
                         colour=AUDIT_COLOUR)  # fmt: skip


__all__ = [
    "MatchButton",
    "actor_of",
    "announce",
    "audit_embed",
    "export_files",
    "history_embed",
    "league_page_view",
    "match_card",
    "match_embed",
    "match_view",
    "news_embed",
    "settings_line",
    "standings_embed",
    "who",
]
