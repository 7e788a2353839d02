"""What /settings writes and reads besides its commands (cogs/settings/_cog.py): examples that work, the channels a
setting may name, a setting found by what a manager typed, the lines of /settings show."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.data import catalogue
from bot.render.markdown import cut, escape
from bot.server_settings.model import (
    AGREE,
    CHALLENGE_EXPIRY,
    CHALLENGE_MINUTES,
    LEAGUE_CHANNEL,
    MOST_MINUTES,
    RESULTS_CHANNEL,
    THREADS,
    VISIBILITY,
    SettingRow,
    example_variant,
    split_house_key,
    variants,
)
from bot.server_settings.words import game_label, plain_channel, setting_line, setting_name
from rules_core.options import OptionSpec, OptionType


def mention(channel_id: str) -> str:
    return f"<#{channel_id}>"


def good_value(spec: OptionSpec, bad: str = "") -> str:
    """A value the option takes, for an example (another than the one refused)."""
    if spec.type is OptionType.CHOICE:
        return next((c for c in spec.choices if c not in (bad, spec.default)), spec.choices[0])
    if spec.type is OptionType.BOOL:
        return "off" if spec.default else "on"
    if spec.default is not None:
        return f"{spec.default:g}" if isinstance(spec.default, float) else str(spec.default)
    return f"{spec.minimum:g}" if spec.minimum is not None else "1"


def house_rule_example(game_id: str, spec: OptionSpec | None, bad: str = "") -> str:
    """A /settings house-rule that works: ``spec`` (a rules variant) with another value than ``bad``; else the
    game's first variant with a choice other than its default."""
    game = catalogue().game(game_id)
    if spec is None or not spec.variant:
        chosen = example_variant(game)
        if chosen is None:
            return "/settings show"
        spec, value = chosen
        shown = value if isinstance(value, str) else good_value(spec)
        return f"/settings house-rule game:{game.id} option:{spec.name} value:{shown}"
    return f"/settings house-rule game:{game.id} option:{spec.name} value:{good_value(spec, bad)}"


def settable(game_id: str) -> list[OptionSpec]:
    """The options a house rule may set: the game's rules variants."""
    return variants(catalogue().game(game_id))


# The channels a setting may name: a category or a voice channel has no results of its own; a forum has posts (its
# threads follow its house rules and visibility) but takes no message of the bot's.
TEXT_KINDS = (discord.ChannelType.text, discord.ChannelType.news, discord.ChannelType.forum)
TEXT_CHANNELS = {RESULTS_CHANNEL: TEXT_KINDS[:2], LEAGUE_CHANNEL: TEXT_KINDS[:2]}


def not_a_text_channel(channel: app_commands.AppCommandChannel, key: str) -> str:
    kind = {discord.ChannelType.category: "a category", discord.ChannelType.forum: "a forum"}.get(
        channel.type, "a voice channel" if channel.type in (discord.ChannelType.voice, discord.ChannelType.stage_voice)
        else "not a text channel")  # fmt: skip
    if key in TEXT_CHANNELS:
        return f"#{channel.name} is {kind}: the {setting_name(key)} must be a text channel the bot can post in."
    return f"#{channel.name} is {kind}: settings apply to text channels (and their threads); pick one of those."


def setting_named(setting: str, rows: list[SettingRow]) -> str | None:
    """The key of the setting ``setting`` names, case-insensitively: its key, its name or its line as /settings
    show writes it (among ``rows``, those set where the command points); a key as typed otherwise."""
    typed = " ".join(setting.strip().lstrip("•").split()).lower()
    for row in rows:
        said = {row.key, setting_name(row.key), setting_line(row.key, row.value, mention),
                setting_line(row.key, row.value, plain_channel)}  # fmt: skip
        if typed in {text.lower() for text in said}:
            return row.key
    known = (VISIBILITY, THREADS, RESULTS_CHANNEL, LEAGUE_CHANNEL, AGREE, CHALLENGE_EXPIRY)
    by_name = {setting_name(key).lower(): key for key in known}
    return by_name.get(typed) or next((key for key in known if key == typed), None) or (
        setting.strip() if split_house_key(setting.strip()) is not None else None)  # fmt: skip


def bad_minutes(minutes: int) -> str:
    """The refusal of a challenge's time that is no whole number of minutes from 1 to a day (Discord's own form
    keeps within them; a client that does not is told)."""
    return (f"A challenge stays open for a whole number of minutes from 1 to {MOST_MINUTES} (a day), not {minutes}; "
            f"unset, it is {CHALLENGE_MINUTES} (/settings clear setting:challenge expiry).")  # fmt: skip


FIELD = 1024  # Discord's limit on an embed field's value
FIELDS = 25  # and on an embed's fields
EMBED = 6000  # and on an embed's characters (titles, fields, footer)


def shown_lines(rows: list[SettingRow], room: int = FIELD) -> str:
    """One bullet a setting, within ``room`` characters: what does not fit is counted ("… and 3 more")."""
    lines = [f"• {setting_line(row.key, row.value, mention)}" for row in rows]
    for kept in range(len(lines), -1, -1):
        more = len(lines) - kept
        text = "\n".join(lines[:kept] + ([f"… and {more} more"] if more else []))
        if len(text) <= room:
            return text
    return cut(lines[0], room)


def setting_fields(title: str, rows: list[SettingRow]) -> list[tuple[str, str]]:
    """``rows`` as embed fields: the settings that are no house rule under ``title``, then one field per game's
    house rules ("This server · Epic house rules"), so a busy server's house rules are never cut at one field."""
    plain = [row for row in rows if split_house_key(row.key) is None]
    games: dict[str, list[SettingRow]] = {}
    for row in rows:
        split = split_house_key(row.key)
        if split is not None:
            games.setdefault(split[0], []).append(row)
    fields = [(title, shown_lines(plain))] if plain else []
    fields += [(f"{title} · {game_label(game)} house rules", shown_lines(kept)) for game, kept in games.items()]
    return fields


def fit_fields(fields: list[tuple[str, str]], used: int) -> list[tuple[str, str]]:
    """As many ``fields`` as an embed holds beside ``used`` characters (its title and footer), the last saying how
    many more settings were left out."""
    kept: list[tuple[str, str]] = []
    for number, (name, value) in enumerate(fields):
        rest = len(fields) - number - 1
        if len(kept) + (2 if rest else 1) > FIELDS or used + len(name) + len(value) > EMBED - 60 * bool(rest):
            left = sum(field[1].count("\n") + 1 for field in fields[number:])
            kept.append(("And more", f"{left} more settings: /settings show channel: shows one channel's"))
            break
        kept.append((name, value))
        used += len(name) + len(value)
    return kept


def who(actor: str) -> str:
    """A change's author: a mention, or the pseudonym a deleted user's id became (never a broken mention)."""
    return f"<@{actor}>" if actor.isdigit() else escape(actor)


def channel_name(
    interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel | None, channel_id: str
) -> str:
    if channel is not None:
        return channel.name
    found = interaction.guild.get_channel(int(channel_id)) if interaction.guild is not None else None
    return found.name if found is not None else "this channel"


__all__ = [
    "TEXT_CHANNELS",
    "TEXT_KINDS",
    "bad_minutes",
    "channel_name",
    "good_value",
    "house_rule_example",
    "mention",
    "not_a_text_channel",
    "settable",
    "setting_named",
    "shown_lines",
    "who",
]
