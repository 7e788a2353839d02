"""Settings and their changes in a reader's words, the same for Discord and the terminal except how a channel is
named (a mention in Discord, its id in the terminal): ``channel`` writes one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.server_settings.model import (
    AGREE,
    CHALLENGE_EXPIRY,
    LEAGUE_CHANNEL,
    PREF_PRIVATE,
    PREF_STEPS,
    RESULTS_CHANNEL,
    SERVER,
    THREADS,
    USER,
    VISIBILITY,
    WEB,
    Change,
    phrase,
    split_house_key,
)
from rules_core import RefereeError
from rules_core.registry import get_game

Channel = Callable[[str], str]


def plain_channel(channel_id: str) -> str:
    return f"channel {channel_id}"


def game_label(game_id: str) -> str:
    """A game as a setting names it: its heading's words without " assault" ("Epic", "40K", "Bolt Action"); the
    id itself for a game no longer registered."""
    try:
        return get_game(game_id).short_title.removesuffix(" assault") or game_id
    except RefereeError:
        return game_id


def setting_name(key: str) -> str:
    """What a key is called: ``Epic house rule result dice``, ``visibility``, ``results channel``."""
    split = split_house_key(key)
    if split is not None:
        return f"{game_label(split[0])} house rule {split[1].replace('_', ' ')}"
    names = {PREF_PRIVATE: "private by default", PREF_STEPS: "step list", WEB: "web pages"}
    return names.get(key, key.replace("_", " "))


def value_text(key: str, value: Any, channel: Channel = plain_channel) -> str:
    """One value as a reader says it; ``unset`` for None."""
    if value is None:
        return "unset"
    split = split_house_key(key)
    if split is not None:
        return phrase(split[1], value).partition(": ")[2]
    if key in (RESULTS_CHANNEL, LEAGUE_CHANNEL):
        return channel(str(value))
    if key == CHALLENGE_EXPIRY:
        return f"{value} minute{'' if value == 1 else 's'}"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def setting_line(key: str, value: Any, channel: Channel = plain_channel) -> str:
    """One setting in effect: ``Epic house rule result dice: sum``, ``results: private by default``."""
    if split_house_key(key) is not None:
        return f"{setting_name(key)}: {value_text(key, value, channel)}"
    if key == VISIBILITY:
        return f"results: {value} by default"
    if key == THREADS:
        return f"long results in a thread of their own: {value}"
    if key == RESULTS_CHANNEL:
        return f"results channel (a copy of each public result): {channel(str(value))}"
    if key == LEAGUE_CHANNEL:
        return f"league channel (confirmations, disputes, standings): {channel(str(value))}"
    if key == WEB:
        return f"web pages (leagues, public combats): {value}"
    if key == AGREE:
        return f"agree (a combat naming an opponent waits for them to accept it): {value}"
    if key == CHALLENGE_EXPIRY:
        return f"challenge expiry (how long a challenge stays open): {value_text(key, value)}"
    if key == PREF_PRIVATE:
        return f"my results private by default: {value_text(key, value)}"
    if key == PREF_STEPS:
        return f"step list: {value}"
    return f"{key}: {value}"


def where(change: Change, channel: Channel = plain_channel) -> str:
    """Where a change applies: ``whole server``, a channel, or ``your preference`` (a user's own)."""
    if change.scope == USER:
        return "your preference"
    return "whole server" if change.scope == SERVER else channel(change.scope_id)


def change_text(change: Change, channel: Channel = plain_channel) -> str:
    """What changed, without who and when: ``Epic house rule result dice: unset → sum (whole server)``."""
    before, after = value_text(change.key, change.before, channel), value_text(change.key, change.after, channel)
    return f"{setting_name(change.key)}: {before} → {after} ({where(change, channel)})"


__all__ = [
    "Channel",
    "change_text",
    "game_label",
    "plain_channel",
    "setting_line",
    "setting_name",
    "value_text",
    "where",
]
