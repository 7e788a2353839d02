"""/league (everyone: join leagues, report games, read standings) and /league-admin (organisers: create a
league, its settings, seasons, disputes, corrections); docs/leagues.md.

Two top-level commands because Discord shows or hides a whole top-level command by its
``default_member_permissions`` (it ignores the field on a subcommand): /league-admin asks for Manage Server, so
members see it only when they have that or a server's admins grant it to a role. That only hides it: whoever
runs it, the league domain still decides (organisers of that league, or members with Manage Server).

Thin: every rule (who may do what, the match transitions) lives in the league domain (bot/leagues/), and
exactly-once changes and the audit log in the store (bot/storage/leagues.py, matches.py); this cog turns options
into store calls and results into messages. Organiser commands pass ``Manage Server`` along as
``Actor.manager``. Reports that nobody answers are confirmed by a sweep every minute (and at start), which also
edits their messages and reminds opponents a day before (``_follow``); players' names come from ``_names``.
"""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.interactions import actor_of
from bot.discord.options import ID
from bot.discord.sweeps import Sweeper
from bot.leagues.chart import chart_title, legend_labels, rating_chart
from bot.leagues.errors import LeagueError, LeagueNotFound
from bot.leagues.model import LeagueInfo, MatchInfo, Standings
from bot.leagues.standings import Points
from bot.render.markdown import escape
from cogs.leagues._follow import refresh_posts, sweep
from cogs.leagues._names import NameBook
from cogs.leagues._ui import (
    announce,
    audit_embed,
    export_files,
    history_embed,
    league_page_view,
    match_card,
    match_view,
    settings_line,
    standings_embed,
    who,
)
from rules_core import all_games
from rules_core.compact import plural

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

log = logging.getLogger("referee.bot")
SWEEP_SECONDS = 60.0
SWEEP_GRACE = 10.0  # seconds a sweep in progress is given to finish when the bot stops
Result = Literal["win", "draw", "loss"]
Decision = Literal["win", "draw", "loss", "void"]
GAMES = [app_commands.Choice(name=game.title[:100], value=game.id) for game in all_games()]
LEAGUE = "The league (needed only when the server has several)."
AGREED = "Count only combats both players agreed to (a challenge with agree:true) in reports (false)."
POINTS = app_commands.Range[int, 0, 100]
HOURS = app_commands.Range[int, 1, 720]
MATCH = ID
SHORT = app_commands.Range[str, 1, 300]
IN_SERVERS = app_commands.AppCommandContext(guild=True)  # what @app_commands.guild_only() sets


class LeagueCog(commands.Cog):
    # Two top-level commands: Discord reads default_member_permissions on a top-level command only.
    everyone = app_commands.Group(name="league", description="Leagues: report games, see standings.",
                                  guild_only=True, allowed_contexts=IN_SERVERS)  # fmt: skip
    organisers = app_commands.Group(
        name="league-admin", description="Run a league: create it, settings, seasons, disputes (organisers).",
        guild_only=True, allowed_contexts=IN_SERVERS, default_permissions=discord.Permissions(manage_guild=True),
    )  # fmt: skip
    season = app_commands.Group(name="season", description="Start or end a season (organisers).", parent=organisers)

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.names = NameBook(bot)
        # Reports nobody answered confirmed, at start and every minute (a sweep in progress finishes at a clean stop:
        # the matches it confirmed are claimed, so only it would edit and announce them).
        self.sweeper = Sweeper("league sweep", self.sweep_once, seconds=SWEEP_SECONDS, grace=SWEEP_GRACE)
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await self.names.note(interaction)  # the names Discord sends anyway label the chart and the CSV
        return True

    async def cog_load(self) -> None:
        self.sweeper.start()

    async def cog_unload(self) -> None:
        await self.sweeper.stop()

    # --- the automatic confirmation ----------------------------------------------------------------------------

    async def sweep_once(self, at: datetime | None = None) -> int:
        """Confirm every report whose window has passed (by ``at``, default now), edit and announce them, remind
        the opponents of reports due within a day (cogs/leagues/_follow.py); how many were confirmed."""
        return await sweep(self.bot, at)

    # --- helpers -----------------------------------------------------------------------------------------------

    async def league(self, interaction: discord.Interaction[Any], reference: str | None) -> LeagueInfo:
        actor = actor_of(interaction)
        if reference:
            return await self.bot.store.leagues.find(reference, actor=actor)
        leagues = await self.bot.store.leagues.all(actor=actor)
        if len(leagues) == 1:
            return leagues[0]
        if not leagues:
            raise LeagueNotFound(
                "This server has no league yet: an organiser starts one with /league-admin create "
                f"name:Autumn Crusade game:{all_games()[0].id}"
            )
        names = ", ".join(league.name for league in leagues[:10])
        raise LeagueError(f"This server has several leagues ({names}): say which. Example: league:{leagues[0].name}")

    async def league_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        leagues = await self.bot.store.leagues.all(actor=actor_of(interaction))
        wanted = current.casefold()
        return [app_commands.Choice(name=league.name, value=league.name) for league in leagues
                if wanted in league.name.casefold()][:25]  # fmt: skip

    @staticmethod
    async def say(interaction: discord.Interaction[Any], text: str, *, private: bool = False) -> None:
        await interaction.response.send_message(text, ephemeral=private)

    # --- leagues and players (the organisers' commands are /league-admin) ---------------------------------------

    @organisers.command(name="create", description="Start a league in this server (you organise it).")
    @app_commands.describe(
        name="The league's name.", game="The game it plays.", win="Points for a win (3).",
        draw="Points for a draw (1).", loss="Points for a loss (0).",
        confirm_hours="Unanswered reports confirm themselves after this many hours (72).",
        require_agreed=AGREED,
    )  # fmt: skip
    @app_commands.choices(game=GAMES)
    async def create(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 50], game: str,
        win: POINTS = 3, draw: POINTS = 1, loss: POINTS = 0, confirm_hours: HOURS = 72, require_agreed: bool = False,
    ) -> None:  # fmt: skip
        league = await self.bot.store.leagues.create(
            str(interaction.guild_id), name, game, actor=actor_of(interaction), points=Points(win, draw, loss),
            confirm_hours=confirm_hours, require_agreed=require_agreed,
        )  # fmt: skip
        await self.say(interaction, f"League **{escape(league.name)}** ({league.game}) is open: players join with "
                                    f"`/league join`. {settings_line(league)}")  # fmt: skip

    @everyone.command(name="list", description="This server's leagues.")
    async def list_leagues(self, interaction: discord.Interaction[Any]) -> None:
        leagues = await self.bot.store.leagues.all(actor=actor_of(interaction))
        lines = [f"**{escape(league.name)}** · {league.game} · season {league.season} · {len(league.players)} players"
                 + (" · agreed combats only" if league.require_agreed else "") for league in leagues]  # fmt: skip
        lines = lines or ["No leagues yet: an organiser starts one with `/league-admin create`."]
        await self.say(interaction, "\n".join(lines)[:2000], private=True)

    @everyone.command(name="join", description="Join a league as a player.")
    @app_commands.describe(league=LEAGUE)
    async def join(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self.league(interaction, league)
        await self.bot.store.leagues.join(found.id, actor=actor_of(interaction))
        await self.say(interaction, f"{who(str(interaction.user.id))} joined **{escape(found.name)}**.")

    @everyone.command(name="leave", description="Leave a league (your games stay in its records).")
    @app_commands.describe(league=LEAGUE)
    async def leave(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self.league(interaction, league)
        await self.bot.store.leagues.leave(found.id, actor=actor_of(interaction))
        await self.say(interaction, f"{who(str(interaction.user.id))} left **{escape(found.name)}**.")

    @organisers.command(name="settings", description="Change a league's name, points or window (organisers).")
    @app_commands.describe(
        league=LEAGUE, name="A new name.", win="Points for a win.", draw="Points for a draw.",
        loss="Points for a loss.", confirm_hours="Hours before a report confirms itself.", require_agreed=AGREED,
    )  # fmt: skip
    async def settings(
        self, interaction: discord.Interaction[Any], league: str | None = None,
        name: app_commands.Range[str, 1, 50] | None = None, win: POINTS | None = None, draw: POINTS | None = None,
        loss: POINTS | None = None, confirm_hours: HOURS | None = None, require_agreed: bool | None = None,
    ) -> None:  # fmt: skip
        found = await self.league(interaction, league)
        points = None
        if (win, draw, loss) != (None, None, None):
            points = Points(found.points.win if win is None else win, found.points.draw if draw is None else draw,
                            found.points.loss if loss is None else loss)  # fmt: skip
        changed = await self.bot.store.leagues.update_settings(found.id, actor=actor_of(interaction), points=points,
            confirm_hours=confirm_hours, name=name, require_agreed=require_agreed)  # fmt: skip
        await self.say(interaction, f"**{escape(changed.name)}**: {settings_line(changed)}")

    @organisers.command(name="organiser", description="Add a co-organiser (organisers).")
    @app_commands.describe(user="Who to add.", league=LEAGUE)
    async def organiser(
        self, interaction: discord.Interaction[Any], user: discord.User, league: str | None = None
    ) -> None:
        found = await self.league(interaction, league)
        await self.bot.store.leagues.add_organiser(found.id, str(user.id), actor=actor_of(interaction))
        await self.say(interaction, f"{who(str(user.id))} now organises **{escape(found.name)}**.")

    @season.command(name="start", description="End the current season and start the next (organisers).")
    @app_commands.describe(league=LEAGUE)
    async def season_start(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self.league(interaction, league)
        started = await self.bot.store.leagues.start_season(found.id, actor=actor_of(interaction))
        await self.say(interaction, f"**{escape(started.name)}**: season {started.season} has begun. Same players, "
                                    "fresh standings; `/league standings season:N` shows past seasons.")  # fmt: skip

    @season.command(name="end", description="End the current season (organisers).")
    @app_commands.describe(league=LEAGUE)
    async def season_end(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self.league(interaction, league)
        ended = await self.bot.store.leagues.end_season(found.id, actor=actor_of(interaction))
        await self.say(interaction, f"**{escape(ended.name)}**: season {ended.season} has ended. `/league standings` "
                                    "shows the final table.")  # fmt: skip

    # --- matches -----------------------------------------------------------------------------------------------

    @everyone.command(name="report", description="Report a game you played; your opponent confirms it.")
    @app_commands.describe(opponent="Who you played.", result="Your result.", score="The score, if any (e.g. 3-1).",
                           combats="Combat record ids it was fought with (e.g. 12, 15).", notes="Anything to add.",
                           league=LEAGUE)  # fmt: skip
    async def report(
        self, interaction: discord.Interaction[Any], opponent: discord.User, result: Result,
        score: app_commands.Range[str, 1, 30] | None = None, combats: app_commands.Range[str, 1, 100] | None = None,
        notes: app_commands.Range[str, 1, 500] | None = None, league: str | None = None,
    ) -> None:  # fmt: skip
        found = await self.league(interaction, league)
        outcome = await self.bot.store.matches.report(
            found.id, actor=actor_of(interaction), opponent=str(opponent.id), result=result, score=score,
            combats=combats, notes=notes or "",
        )  # fmt: skip
        match = outcome.match
        if outcome.kind == "created":
            text = f"{who(match.opponent)}: {who(match.reporter)} reported a game against you. Confirm or dispute it."
            mention = discord.AllowedMentions(users=[discord.Object(id=int(match.opponent))])
            view = match_view(match)
            extra: dict[str, Any] = {} if view is None else {"view": view}
            sent = await interaction.response.send_message(text, embed=await match_card(self.bot, match, found),
                                                           allowed_mentions=mention, **extra)  # fmt: skip
            if sent.message_id is not None and interaction.channel_id is not None:  # to edit it when time runs out
                await self.bot.store.matches.attach_post(match.id, channel_id=str(interaction.channel_id),
                                                         message_id=str(sent.message_id))  # fmt: skip
            return
        if outcome.kind == "merged":
            text = f"{who(match.reporter)} had already reported this game with the same result: confirmed."
        else:
            text = (f"{who(match.reporter)} reported this game with another result: it is disputed now, for an "
                    "organiser to settle.")  # fmt: skip
        await interaction.response.send_message(text, embed=await match_card(self.bot, match, found))
        await refresh_posts(self.bot, [match], found)  # the first report's message: its buttons go
        what = "confirmed" if outcome.kind == "merged" else "disputed"
        await announce(self.bot, found, match, what, str(interaction.user.id), origin=interaction.channel_id)

    @organisers.command(name="resolve", description="Settle a disputed match (organisers who did not play it).")
    @app_commands.describe(match="The match id.", decision="The reporter's result that stands, or void.",
                           reason="Why (kept in the audit log).")  # fmt: skip
    async def resolve(
        self, interaction: discord.Interaction[Any], match: MATCH, decision: Decision, reason: SHORT
    ) -> None:
        changed = await self.bot.store.matches.resolve(match, decision, actor=actor_of(interaction), reason=reason)
        await self._decided(interaction, changed, "voided" if decision == "void" else "resolved")

    @organisers.command(name="void", description="Void a match: it no longer counts (organisers).")
    @app_commands.describe(match="The match id.", reason="Why (kept in the audit log).")
    async def void(self, interaction: discord.Interaction[Any], match: MATCH, reason: SHORT) -> None:
        changed = await self.bot.store.matches.void(match, actor=actor_of(interaction), reason=reason)
        await self._decided(interaction, changed, "voided")

    @organisers.command(name="correct", description="Correct a confirmed match's result (organisers).")
    @app_commands.describe(match="The match id.", result="The reporter's result.", reason="Why (kept in the log).",
                           score="The corrected score.")  # fmt: skip
    async def correct(
        self, interaction: discord.Interaction[Any], match: MATCH, result: Result, reason: SHORT,
        score: app_commands.Range[str, 1, 30] | None = None,
    ) -> None:  # fmt: skip
        changed = await self.bot.store.matches.correct(
            match, actor=actor_of(interaction), result=result, reason=reason, score=score
        )
        await self._decided(interaction, changed, "corrected")

    @organisers.command(name="enter", description="Enter a result directly, confirmed at once (organisers).")
    @app_commands.describe(player="The first player.", opponent="The second player.", result="The first player's.",
                           score="The score.", combats="Combat record ids.", notes="Anything to add.",
                           league=LEAGUE)  # fmt: skip
    async def enter(
        self, interaction: discord.Interaction[Any], player: discord.User, opponent: discord.User, result: Result,
        score: app_commands.Range[str, 1, 30] | None = None, combats: app_commands.Range[str, 1, 100] | None = None,
        notes: app_commands.Range[str, 1, 500] | None = None, league: str | None = None,
    ) -> None:  # fmt: skip
        found = await self.league(interaction, league)
        entered = await self.bot.store.matches.enter(
            found.id, actor=actor_of(interaction), player=str(player.id), opponent=str(opponent.id), result=result,
            score=score, combats=combats, notes=notes or "",
        )  # fmt: skip
        await interaction.response.send_message(embed=await match_card(self.bot, entered, found))
        await announce(self.bot, found, entered, "entered", str(interaction.user.id), origin=interaction.channel_id)

    async def _decided(self, interaction: discord.Interaction[Any], changed: MatchInfo, what: str) -> None:
        """An organiser's decision, shown; the report's own message then says so too (and loses its buttons), and
        the league channel hears of it."""
        league = await self.bot.store.leagues.get(changed.league_id, actor=actor_of(interaction))
        await interaction.response.send_message(embed=await match_card(self.bot, changed, league))
        await refresh_posts(self.bot, [changed], league)
        await announce(self.bot, league, changed, what, str(interaction.user.id), origin=interaction.channel_id)

    # --- reading -----------------------------------------------------------------------------------------------

    @everyone.command(name="standings", description="The table: points, W-D-L and Elo, with a rating chart.")
    @app_commands.describe(season="A past season (default: the current one).", league=LEAGUE)
    async def standings(
        self, interaction: discord.Interaction[Any], season: ID | None = None,
        league: str | None = None,
    ) -> None:  # fmt: skip
        found = await self.league(interaction, league)
        table = await self.bot.store.leagues.standings(found.id, actor=actor_of(interaction), season=season)
        await interaction.response.send_message(embed=standings_embed(table), view=league_page_view(self.bot, table))
        if any(row.played for row in table.rows):
            # The table answers at once; the names (cached, or fetched) and the chart follow in an edit.
            names = await self.names.names(table.league.guild_id, [row.player for row in table.rows if row.history])
            png = await asyncio.to_thread(self._chart, table, names)
            legend = "Ratings over time: " + ", ".join(legend_labels(table.rows, names))  # the alt text
            await interaction.edit_original_response(
                attachments=[discord.File(io.BytesIO(png), filename="ratings.png", description=legend[:1024])]
            )

    def _chart(self, table: Standings, names: dict[str, str]) -> bytes:
        return rating_chart(table.rows, chart_title(table.league.name, table.season), names)

    @everyone.command(name="history", description="The league's matches, newest first.")
    @app_commands.describe(player="Only this player's matches.", league=LEAGUE)
    async def history(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None, league: str | None = None
    ) -> None:
        found = await self.league(interaction, league)
        chosen = None if player is None else str(player.id)
        matches = await self.bot.store.matches.in_league(found.id, actor=actor_of(interaction), player=chosen,
                                                       limit=20)  # fmt: skip
        await interaction.response.send_message(embed=history_embed(found, matches, chosen))

    @everyone.command(name="audit", description="Every change to the league: who, when, before and after.")
    @app_commands.describe(match="Only this match's changes.", league=LEAGUE)
    async def audit(
        self, interaction: discord.Interaction[Any], match: MATCH | None = None, league: str | None = None
    ) -> None:
        found = await self.league(interaction, league)
        entries = await self.bot.store.leagues.audit(found.id, actor=actor_of(interaction), match_id=match, limit=15)
        await interaction.response.send_message(embed=audit_embed(found, entries), ephemeral=True)

    @everyone.command(name="export", description="The matches and standings as CSV files (only you see them).")
    @app_commands.describe(season="The standings' season (default: the current one).", league=LEAGUE)
    async def export(
        self, interaction: discord.Interaction[Any], season: ID | None = None,
        league: str | None = None,
    ) -> None:  # fmt: skip
        found = await self.league(interaction, league)
        table = await self.bot.store.leagues.standings(found.id, actor=actor_of(interaction), season=season)
        matches = await self.bot.store.matches.in_league(found.id, actor=actor_of(interaction))
        players = [row.player for row in table.rows] + [p for m in matches for p in (m.reporter, m.opponent)]
        names = await self.names.names(found.guild_id, players)  # beside the ids
        agreed = await self.bot.store.matches.agreements(c for m in matches for c in m.combats)
        await interaction.response.send_message(
            f"**{escape(found.name)}**: {plural(len(matches), 'match', 'matches')}, season {table.season}'s "
            "standings and the league's settings.",
            files=export_files(found, table, matches, names, agreed), ephemeral=True,
        )  # fmt: skip

    # Every command that names a league offers this server's leagues as the player types.
    join.autocomplete("league")(league_choices)
    leave.autocomplete("league")(league_choices)
    settings.autocomplete("league")(league_choices)
    organiser.autocomplete("league")(league_choices)
    season_start.autocomplete("league")(league_choices)
    season_end.autocomplete("league")(league_choices)
    report.autocomplete("league")(league_choices)
    enter.autocomplete("league")(league_choices)
    standings.autocomplete("league")(league_choices)
    history.autocomplete("league")(league_choices)
    audit.autocomplete("league")(league_choices)
    export.autocomplete("league")(league_choices)


__all__ = ["SWEEP_SECONDS", "LeagueCog"]
