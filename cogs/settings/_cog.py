"""/settings for server managers and /preferences for everyone (docs/settings.md).

/settings, top-level, has ``default_member_permissions`` Manage Server, because Discord hides a command from
members without it only on a top-level command; hiding is no check, so every subcommand also refuses, privately,
anyone without Manage Server (a server may have granted the command to a role). Every change is written with its
audit row in one transaction and applied to this process's cache at once; other processes see it within a second
(bot/server_settings/cache.py). Answers to managers are private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.data import catalogue
from bot.discord.errors import DISCORD, error_embed
from bot.discord.options import game_choices
from bot.render.colours import INFO_COLOUR
from bot.render.markdown import cut
from bot.server_settings.model import (
    AGREE,
    CHALLENGE_EXPIRY,
    CHANNEL,
    CHANNEL_OR_SERVER,
    LEAGUE_CHANNEL,
    PREF_PRIVATE,
    PREF_STEPS,
    RESULTS_CHANNEL,
    SERVER,
    SERVER_ONLY,
    THREADS,
    USER,
    VISIBILITY,
    WEB,
    Change,
    challenge_minutes,
    house_key,
    house_rule_option,
    house_rule_value,
    split_house_key,
)
from bot.server_settings.words import change_text, plain_channel, setting_line, setting_name, value_text
from cogs.settings._words import (
    TEXT_CHANNELS,
    TEXT_KINDS,
    bad_minutes,
    channel_name,
    fit_fields,
    house_rule_example,
    mention,
    not_a_text_channel,
    settable,
    setting_fields,
    setting_named,
    shown_lines,
    who,
)
from rules_core import RefereeError
from rules_core.errors import OptionError
from rules_core.options import OptionType

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

Channel = app_commands.AppCommandChannel
Choice = app_commands.Choice[str]
FOOTER = "A player's explicit option always wins over a house rule · /settings history"
HISTORY_PAGE = 10  # changes a page of /settings history
REFUSED = "Only a member with Manage Server can use /settings: being allowed to use the command is not enough."
CHANNEL_HELP = "One channel only (it overrides the server's); leave out for the whole server."


class SettingsCog(commands.Cog):
    managers = app_commands.Group(
        name="settings",
        description="This server's house rules, visibility, threads, channels and challenges (Manage Server).",
        guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True),
        default_permissions=discord.Permissions(manage_guild=True),
    )  # fmt: skip
    everyone = app_commands.Group(name="preferences", description="Your own defaults: private results, step list.")

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        super().__init__()

    # --- shared -----------------------------------------------------------------------------------------------------

    @staticmethod
    async def refused(interaction: discord.Interaction[Any]) -> bool:
        """Refuse (privately) anyone without Manage Server here: being shown the command is not enough."""
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return False
        await interaction.response.send_message(embed=error_embed(REFUSED), ephemeral=True)
        return True

    async def change(
        self,
        interaction: discord.Interaction[Any],
        key: str,
        value: Any,
        channel: app_commands.AppCommandChannel | None,
    ) -> None:
        """Set (or, with None, clear) one of the server's settings, or one channel's, and say what changed."""
        for named in (channel, value if key in (RESULTS_CHANNEL, LEAGUE_CHANNEL) else None):
            if isinstance(named, app_commands.AppCommandChannel) and named.type not in TEXT_CHANNELS.get(
                key, TEXT_KINDS
            ):
                await interaction.response.send_message(embed=error_embed(not_a_text_channel(named, key)),
                                                        ephemeral=True)  # fmt: skip
                return
        if isinstance(value, app_commands.AppCommandChannel):
            value = str(value.id)
        guild = str(interaction.guild_id)
        scope, scope_id = (CHANNEL, str(channel.id)) if channel is not None else (SERVER, guild)
        store = self.bot.store.settings
        actor = str(interaction.user.id)
        if value is None:
            done = await store.clear(scope, scope_id, guild, key, actor)
        else:
            done = await store.set(scope, scope_id, guild, key, value, actor)
        where = "for the whole server" if channel is None else f"in {mention(scope_id)}"
        await self.answer_change(interaction, done, key, value, where)

    async def answer_change(
        self, interaction: discord.Interaction[Any], done: Change | None, key: str, value: Any, where: str,
        *, title: str = "Settings",
    ) -> None:  # fmt: skip
        """``where``: "for the whole server", "in #channel" or "for you"."""
        if done is not None:
            self.bot.server_settings.apply(done)
            text = f"{change_text(done, mention)}."
        elif value is None:
            text = f"Nothing to clear: {setting_name(key)} is not set {where}."
        else:
            text = f"Nothing changed: {setting_name(key)} is already {value_text(key, value, mention)} {where}."
        text = text[:1].upper() + text[1:]
        embed = discord.Embed(title=title, description=text, colour=INFO_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # --- /settings --------------------------------------------------------------------------------------------------

    @managers.command(name="house-rule", description="A default for one option of one game (a player's own wins).")
    @app_commands.describe(game="The game.", option="One of the game's options.", value="Its value here.",
                           channel=CHANNEL_HELP)  # fmt: skip
    @app_commands.choices(game=game_choices())
    async def house_rule(
        self, interaction: discord.Interaction[Any], game: str, option: str, value: str,
        channel: app_commands.AppCommandChannel | None = None,
    ) -> None:  # fmt: skip
        if await self.refused(interaction):
            return
        bound = catalogue().game(game)
        try:
            name, converted = house_rule_value(bound, option, value)
        except OptionError as error:
            spec = next((s for s in settable(bound.id) if s.name == option.strip().replace("-", "_")), None)
            await interaction.response.send_message(
                embed=error_embed(error.text_of(DISCORD), house_rule_example(bound.id, spec, value), escaped=True),
                ephemeral=True,
            )
            return
        await self.change(interaction, house_key(bound.id, name), converted, channel)

    @house_rule.autocomplete("option")
    async def option_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if not game:
            return []
        typed = current.strip().lower().replace("-", "_")
        return [
            app_commands.Choice(name=cut(f"{spec.name} ({spec.describe_range()})", 100), value=spec.name)
            for spec in settable(game)
            if typed in spec.name
        ][:25]

    @house_rule.autocomplete("value")
    async def value_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game, option = getattr(interaction.namespace, "game", None), getattr(interaction.namespace, "option", None)
        if not game or not option:
            return []
        try:
            spec = house_rule_option(catalogue().game(game), option)
        except RefereeError:
            return []
        values = list(spec.choices) if spec.type is OptionType.CHOICE else []
        values = ["on", "off"] if spec.type is OptionType.BOOL else values
        return [app_commands.Choice(name=v, value=v) for v in values if current.lower() in v][:25]

    @managers.command(name="clear", description="Remove one setting of the server or of one channel.")
    @app_commands.describe(setting="The setting to remove: pick it from the list (or type it as /settings show lists "
                           "it).", channel=CHANNEL_HELP)  # fmt: skip
    async def clear(
        self, interaction: discord.Interaction[Any], setting: str, channel: app_commands.AppCommandChannel | None = None
    ) -> None:
        if await self.refused(interaction):
            return
        guild = str(interaction.guild_id)
        scope, scope_id = (CHANNEL, str(channel.id)) if channel is not None else (SERVER, guild)
        rows = [row for row in await self.bot.store.settings.rows_for_guild(guild)
                if (row.scope, row.scope_id) == (scope, scope_id)]  # fmt: skip
        key = setting_named(setting, rows)
        known = key in CHANNEL_OR_SERVER or (channel is None and key in SERVER_ONLY)
        if key is None or (split_house_key(key) is None and not known):
            where = "for the whole server" if channel is None else f"in #{channel.name}"
            text = (f"There is no setting '{setting.strip()}' {where} to clear. Pick one from the list as you type "
                    "(the settings set here); /settings show lists them.")  # fmt: skip
            named = setting_name(rows[0].key) if rows else "visibility"
            await interaction.response.send_message(
                embed=error_embed(text, f"/settings clear setting:{named}"), ephemeral=True
            )
            return
        await self.change(interaction, key, None, channel)

    @clear.autocomplete("setting")
    async def set_choices(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        """The settings set where the command points (the server, or the channel given), by their shown line; a
        member without Manage Server is offered nothing."""
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            return []
        guild = str(interaction.guild_id)
        channel = getattr(interaction.namespace, "channel", None)
        scope, scope_id = (CHANNEL, str(channel.id)) if channel is not None else (SERVER, guild)
        rows = [row for row in self.bot.server_settings.guilds.get(guild, [])
                if (row.scope, row.scope_id) == (scope, scope_id)]  # fmt: skip
        typed = current.strip().lower()
        found = []
        for row in sorted(rows, key=lambda row: row.key):
            line = setting_line(row.key, row.value, plain_channel)
            if typed in line.lower() or typed in row.key.lower():
                found.append(app_commands.Choice(name=cut(line, 100), value=row.key))
        return found[:25]

    @managers.command(name="visibility", description="Results public or private unless a command says otherwise.")
    @app_commands.describe(value="public or private", channel=CHANNEL_HELP)
    async def visibility(
        self, interaction: discord.Interaction[Any], value: Literal["public", "private"],
        channel: app_commands.AppCommandChannel | None = None,
    ) -> None:  # fmt: skip
        if not await self.refused(interaction):
            await self.change(interaction, VISIBILITY, value, channel)

    @managers.command(name="threads", description="A result longer than one page in a thread of its own.")
    @app_commands.describe(value="on or off", channel=CHANNEL_HELP)
    async def threads(
        self, interaction: discord.Interaction[Any], value: Literal["on", "off"],
        channel: app_commands.AppCommandChannel | None = None,
    ) -> None:  # fmt: skip
        if not await self.refused(interaction):
            await self.change(interaction, THREADS, value, channel)

    @managers.command(name="results-channel", description="A channel that gets a copy of each public result.")
    @app_commands.describe(channel="The channel; leave out to stop copying results.")
    async def results_channel(
        self, interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel | None = None
    ) -> None:
        if not await self.refused(interaction):
            await self.change(interaction, RESULTS_CHANNEL, channel, None)

    @managers.command(name="league-channel", description="A channel for league confirmations, disputes and standings.")
    @app_commands.describe(channel="The channel; leave out to unset it.")
    async def league_channel(
        self, interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel | None = None
    ) -> None:
        if not await self.refused(interaction):
            await self.change(interaction, LEAGUE_CHANNEL, channel, None)

    @managers.command(name="web", description="Show this server's leagues and public combats on the web pages.")
    @app_commands.describe(value="public: served on the web pages; off: not served (at once)")
    async def web(self, interaction: discord.Interaction[Any], value: Literal["public", "off"]) -> None:
        if not await self.refused(interaction):
            await self.change(interaction, WEB, value, None)

    @managers.command(name="agree", description="A combat naming an opponent waits for them to accept it first.")
    @app_commands.describe(value="on: a combat with opponent: is a challenge unless it says agree:false; off: rolls "
                           "at once", channel=CHANNEL_HELP)  # fmt: skip
    async def agree(
        self, interaction: discord.Interaction[Any], value: Literal["on", "off"],
        channel: app_commands.AppCommandChannel | None = None,
    ) -> None:  # fmt: skip
        if not await self.refused(interaction):
            await self.change(interaction, AGREE, value, channel)

    @managers.command(name="challenge-expiry", description="How long a challenge stays open (15 minutes unless set).")
    @app_commands.describe(minutes="Whole minutes, 1 to 1440 (a day), e.g. 30")
    async def challenge_expiry(
        self, interaction: discord.Interaction[Any], minutes: app_commands.Range[int, 1, 1440]
    ) -> None:
        if await self.refused(interaction):
            return
        if challenge_minutes(minutes) is None:
            await interaction.response.send_message(
                embed=error_embed(bad_minutes(minutes), "/settings challenge-expiry minutes:30"), ephemeral=True
            )
            return
        await self.change(interaction, CHALLENGE_EXPIRY, minutes, None)

    @managers.command(name="show", description="Every setting in effect: the server's and one channel's own.")
    @app_commands.describe(channel="The channel (default: this one).")
    async def show(
        self, interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel | None = None
    ) -> None:
        if await self.refused(interaction):
            return
        guild = str(interaction.guild_id)
        channel_id = str(channel.id) if channel is not None else str(interaction.channel_id)
        rows = await self.bot.store.settings.rows_for_guild(guild)
        self.bot.server_settings.replace_guild(guild, rows)  # what was read is the newest: the cache takes it
        embed = discord.Embed(title="Settings", colour=INFO_COLOUR)
        server = [row for row in rows if row.scope == SERVER]
        own = [row for row in rows if row.scope == CHANNEL and row.scope_id == channel_id]
        here = f"Overridden in #{channel_name(interaction, channel, channel_id)}"
        fields = setting_fields("This server", server) or [("This server", "Nothing set: the bot's defaults.")]
        fields += setting_fields(here, own) or [(here, "Nothing: the server's settings apply.")]
        others = sorted({row.scope_id for row in rows if row.scope == CHANNEL and row.scope_id != channel_id})
        if others:
            fields.append(("Other channels with their own settings", cut(", ".join(map(mention, others)), 1024)))
        for name, value in fit_fields(fields, used=len("Settings") + len(FOOTER)):
            embed.add_field(name=name, value=value, inline=False)
        embed.set_footer(text=FOOTER)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @managers.command(name="history", description="Every change of this server's settings: who, when, before, after.")
    @app_commands.describe(page="The page (1: the newest changes).")
    async def history(self, interaction: discord.Interaction[Any], page: app_commands.Range[int, 1] = 1) -> None:
        if await self.refused(interaction):
            return
        guild = str(interaction.guild_id)
        total = await self.bot.store.settings.count_history(guild)
        pages = max(1, -(-total // HISTORY_PAGE))
        shown = min(page, pages)
        changes = await self.bot.store.settings.history(guild, limit=HISTORY_PAGE, offset=(shown - 1) * HISTORY_PAGE)
        lines = [f"• <t:{int(c.at.timestamp())}:f> {who(c.actor)}: {change_text(c, mention)}" for c in changes]
        described = cut("\n".join(lines), 4096) or "No setting has been changed yet."
        embed = discord.Embed(title="Settings history", description=described, colour=INFO_COLOUR)
        more = f" · /settings history page:{shown + 1} for older changes" if shown < pages else ""
        embed.set_footer(text=f"Page {shown} of {pages}, newest first ({total} changes){more}")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # --- /preferences -----------------------------------------------------------------------------------------------

    async def prefer(self, interaction: discord.Interaction[Any], key: str, value: Any) -> None:
        user = str(interaction.user.id)
        done = await self.bot.store.settings.set(USER, user, None, key, value, user)
        await self.answer_change(interaction, done, key, value, "for you", title="Your preferences")

    @everyone.command(name="private", description="Your results private unless a command says otherwise.")
    @app_commands.describe(value="on: private by default; off: public by default")
    async def private(self, interaction: discord.Interaction[Any], value: Literal["on", "off"]) -> None:
        await self.prefer(interaction, PREF_PRIVATE, value == "on")

    @everyone.command(name="steps", description="How your results list their steps: compact or full.")
    @app_commands.describe(value="compact: one line a step; full: every step with its dice")
    async def steps(self, interaction: discord.Interaction[Any], value: Literal["compact", "full"]) -> None:
        await self.prefer(interaction, PREF_STEPS, value)

    @everyone.command(name="show", description="Your preferences.")
    async def show_preferences(self, interaction: discord.Interaction[Any]) -> None:
        user = str(interaction.user.id)
        rows = await self.bot.store.settings.rows_for_user(user)
        self.bot.server_settings.replace_user(user, rows)
        text = (
            shown_lines(rows) or "None set: the server's defaults apply (compact steps; public unless it says private)."
        )
        embed = discord.Embed(title="Your preferences", description=text, colour=INFO_COLOUR)
        embed.set_footer(text="/preferences private · /preferences steps · /preferences clear")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @everyone.command(name="clear", description="Forget your preferences (the server's defaults apply again).")
    async def clear_preferences(self, interaction: discord.Interaction[Any]) -> None:
        user = str(interaction.user.id)
        cleared = await self.bot.store.settings.clear_all(USER, user, None, user)
        for done in cleared:
            self.bot.server_settings.apply(done)
        text = "Your preferences are cleared." if cleared else "You had no preferences set."
        await interaction.response.send_message(
            embed=discord.Embed(title="Your preferences", description=text, colour=INFO_COLOUR), ephemeral=True
        )


__all__ = ["SettingsCog"]
