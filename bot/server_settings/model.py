"""The settings themselves, pure: which keys exist, their values checked, what applies in a channel, and house rules
merged into the options of one command.

A setting is one row: a scope (``server``, ``channel`` or ``user``), the id it belongs to (the server's, the
channel's or the user's), the server it belongs to (None for a user's), a key and a JSON value. Channel settings
override the server's for house rules (option by option), visibility, threads and challenges by default; the
results and league channels, the web pages and how long a challenge stays open are the server's alone; a user's
preferences follow them everywhere.

House rules are keyed ``house:<game>:<option>``; they are defaults: an option the player gives explicitly wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_core.errors import Example, OptionError
from rules_core.errors import Setting as ExampleSetting
from rules_core.options import OptionSpec, OptionType, OptionValue
from rules_core.registry import Game

SERVER = "server"
CHANNEL = "channel"
USER = "user"
SCOPES = (SERVER, CHANNEL, USER)

HOUSE_PREFIX = "house:"
VISIBILITY = "visibility"  # "public" or "private": the default for results without private:
THREADS = "threads"  # "on" or "off": a result longer than one page goes to a thread of its own
RESULTS_CHANNEL = "results_channel"  # a channel id: a copy of each public result, with a link back
LEAGUE_CHANNEL = "league_channel"  # a channel id: league confirmations, disputes and standings changes
WEB = "web"  # "public" or "off": the server's leagues and public combats on the web pages (bot/web), opted in
AGREE = "agree"  # "on" or "off": a combat naming an opponent is a challenge they accept before any die is rolled
CHALLENGE_EXPIRY = "challenge_expiry"  # whole minutes, 1 to 1440: how long a challenge stays open (docs/challenges.md)
PREF_PRIVATE = "private"  # a user's: True or False, their results' default visibility
PREF_STEPS = "steps"  # a user's: "compact" (one line a step) or "full" (every step with its dice)

# The audit's mark of a privacy deletion (bot/storage/privacy.py): a row naming nobody and no server, whose key
# tells every bot process to reload all settings, since the rows deleted left no change of their own.
ERASED = "*erased*"

VISIBILITIES = ("public", "private")
STEP_LISTS = ("compact", "full")
SERVER_ONLY = (RESULTS_CHANNEL, LEAGUE_CHANNEL, WEB, CHALLENGE_EXPIRY)
CHANNEL_OR_SERVER = (VISIBILITY, THREADS, AGREE)
CHALLENGE_MINUTES = 15  # a challenge's time to stay open when the server sets none
FEWEST_MINUTES, MOST_MINUTES = 1, 1440  # a minute to a day
USER_KEYS = (PREF_PRIVATE, PREF_STEPS)


@dataclass(frozen=True, slots=True)
class SettingRow:
    """One stored setting."""

    scope: str
    scope_id: str
    guild_id: str | None
    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a setting, as the audit keeps it: who, when, and the value before and after (None: unset)."""

    id: int
    scope: str
    scope_id: str
    guild_id: str | None
    key: str
    before: Any
    after: Any
    actor: str
    at: Any  # a timezone-aware datetime


@dataclass(frozen=True, slots=True)
class Effective:
    """What applies to a command in one channel of one server (or in direct messages: nothing)."""

    house_rules: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)  # game id -> option -> value
    private: bool = False  # results private unless the command says otherwise
    threads: bool = False  # a long result's pages in a thread of its own, the summary in the channel
    results_channel: str | None = None
    league_channel: str | None = None
    web_public: bool = False  # opted in to the web pages (a manager's choice; off unless said)
    agree: bool = False  # combats naming an opponent are challenges unless agree:false says otherwise
    challenge_minutes: int = 15  # how long a challenge stays open

    def house_for(self, game_id: str) -> Mapping[str, OptionValue]:
        return self.house_rules.get(game_id, {})


@dataclass(frozen=True, slots=True)
class Preferences:
    """One player's preferences (unset: the server's, or the bot's, default)."""

    private: bool | None = None
    steps: str = "compact"

    @property
    def full_steps(self) -> bool:
        return self.steps == "full"


NOTHING = Effective()


def house_key(game_id: str, option: str) -> str:
    return f"{HOUSE_PREFIX}{game_id}:{option}"


def split_house_key(key: str) -> tuple[str, str] | None:
    """``(game id, option)`` of a house-rule key; None for any other key."""
    if not key.startswith(HOUSE_PREFIX):
        return None
    game_id, _, option = key.removeprefix(HOUSE_PREFIX).partition(":")
    return game_id, option


def challenge_minutes(value: Any) -> int | None:
    """How long a challenge stays open, as stored or given: a whole number of minutes from 1 to 1440 (a day); None
    for anything else (a fraction, a bool, text, out of range)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if FEWEST_MINUTES <= value <= MOST_MINUTES else None


def effective(rows: Iterable[SettingRow], channel_id: str | None) -> Effective:
    """The settings of one server's ``rows`` that apply in ``channel_id``: the channel's own first, then the
    server's."""
    server: dict[str, Any] = {}
    channel: dict[str, Any] = {}
    for row in rows:
        if row.scope == SERVER:
            server[row.key] = row.value
        elif row.scope == CHANNEL and channel_id is not None and row.scope_id == channel_id:
            channel[row.key] = row.value
    merged = server | channel
    house: dict[str, dict[str, OptionValue]] = {}
    for key, value in merged.items():
        split = split_house_key(key)
        if split is not None:
            house.setdefault(split[0], {})[split[1]] = value
    return Effective(
        house_rules=house,
        private=merged.get(VISIBILITY) == "private",
        threads=merged.get(THREADS) == "on",
        results_channel=server.get(RESULTS_CHANNEL),
        league_channel=server.get(LEAGUE_CHANNEL),
        web_public=server.get(WEB) == "public",
        agree=merged.get(AGREE) == "on",
        challenge_minutes=challenge_minutes(server.get(CHALLENGE_EXPIRY)) or CHALLENGE_MINUTES,
    )


def preferences(rows: Iterable[SettingRow]) -> Preferences:
    """One user's preferences from their rows."""
    values = {row.key: row.value for row in rows if row.scope == USER}
    private = values.get(PREF_PRIVATE)
    steps = values.get(PREF_STEPS)
    return Preferences(
        private=private if isinstance(private, bool) else None,
        steps=steps if steps in STEP_LISTS else "compact",
    )


def variants(game: Game) -> list[OptionSpec]:
    """The options of ``game`` a house rule may set: its rules variants (``OptionSpec.variant``)."""
    return [spec for spec in game.options if spec.variant and spec.type is not OptionType.TEXT]


def house_rule_option(game: Game, option: str) -> OptionSpec:
    """The rules variant of ``game`` a house rule sets; an :class:`OptionError` naming the game's variants
    otherwise (an unknown option, or one that describes a single combat)."""
    name = option.strip().replace("-", "_")
    spec = next((spec for spec in game.options if spec.name == name), None)
    example = _example(game)
    allowed = variants(game)
    label = game.short_title.removesuffix(" assault") or game.id
    listed = (f"A house rule sets one of {label}'s rules variants: {', '.join(s.name for s in allowed)}." if allowed
              else f"{label} has no rules variant a house rule may set.")  # fmt: skip
    if spec is None:
        raise OptionError(f"{game.id} has no option '{option}'. {listed}", token=option, example=example)
    if spec.type is OptionType.TEXT:
        raise OptionError(f"The option {spec.name} names units (a spec): it is given with each combat, never a house "
                          f"rule. {listed}", token=option, example=example)  # fmt: skip
    if not spec.variant:
        raise OptionError(f"The option {spec.name} describes one combat ({_what(spec)}): its players give it with "
                          f"that combat, never as a house rule. {listed}", token=option, example=example)  # fmt: skip
    return spec


def _what(spec: OptionSpec) -> str:
    """An option's help, shortened to its first sentence, lower-cased, without its full stop."""
    first = spec.short_help.split(". ")[0].split(": ")[0].split(" (")[0].rstrip(".")
    return first[:1].lower() + first[1:]


def house_rule_value(game: Game, option: str, value: str) -> tuple[str, OptionValue]:
    """A house rule checked by the game's own declaration: ``(option name, converted value)``."""
    spec = house_rule_option(game, option)
    return spec.name, spec.convert(value)


def apply_house_rules(
    game: Game, chosen: Mapping[str, Any], house: Mapping[str, OptionValue]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The options of one command: the player's (``chosen``, given explicitly) win; each house rule fills an option
    the player left unsaid. Returns the options and the names of those that came from house rules, in the game's
    declaration order. A house rule the game no longer declares (an option renamed since), or on an option that
    is no rules variant (set before variants were told apart), is ignored."""
    merged = dict(chosen)
    used: list[str] = []
    for spec in variants(game):
        if spec.name in house and spec.name not in chosen:
            merged[spec.name] = house[spec.name]
            used.append(spec.name)
    return merged, tuple(used)


def phrase(spec_or_name: OptionSpec | str, value: OptionValue) -> str:
    """One house rule in a player's words: ``result dice: sum``, ``double one passes: on``."""
    name = spec_or_name.name if isinstance(spec_or_name, OptionSpec) else spec_or_name
    if isinstance(value, bool):
        shown = "on" if value else "off"
    elif isinstance(value, float) and value.is_integer():
        shown = str(int(value))
    else:
        shown = str(value).replace("_", " ")
    return f"{name.replace('_', ' ')}: {shown}"


def house_rules_line(options: Mapping[str, Any], used: Iterable[str]) -> str:
    """The summary's line, ``house rules: result dice: sum; max rounds: 3``; empty when none were used."""
    parts = [phrase(name, options.get(name)) for name in used]
    return f"house rules: {'; '.join(parts)}" if parts else ""


def example_variant(game: Game) -> tuple[OptionSpec, bool | int | float | str] | None:
    """A house rule that works, for an example: a variant with a choice other than its default (else a variant
    switched from its default, else any variant at its default); None for a game without variants."""
    found = variants(game)
    for spec in found:
        if spec.type is OptionType.CHOICE and len(spec.choices) > 1:
            return spec, next(choice for choice in spec.choices if choice != spec.default)
    for spec in found:
        if spec.type is OptionType.BOOL:
            return spec, not spec.default
    return next(((spec, spec.default) for spec in found if spec.default is not None), None)


def _example(game: Game) -> Example | None:
    chosen = example_variant(game)
    return None if chosen is None else Example((ExampleSetting(chosen[0].name, chosen[1]),))


__all__ = [
    "AGREE",
    "CHALLENGE_EXPIRY",
    "CHALLENGE_MINUTES",
    "CHANNEL",
    "CHANNEL_OR_SERVER",
    "ERASED",
    "FEWEST_MINUTES",
    "LEAGUE_CHANNEL",
    "MOST_MINUTES",
    "NOTHING",
    "PREF_PRIVATE",
    "PREF_STEPS",
    "RESULTS_CHANNEL",
    "SCOPES",
    "SERVER",
    "SERVER_ONLY",
    "STEP_LISTS",
    "THREADS",
    "USER",
    "USER_KEYS",
    "VISIBILITIES",
    "VISIBILITY",
    "WEB",
    "Change",
    "Effective",
    "Preferences",
    "SettingRow",
    "apply_house_rules",
    "challenge_minutes",
    "effective",
    "example_variant",
    "house_key",
    "house_rule_option",
    "house_rule_value",
    "house_rules_line",
    "phrase",
    "preferences",
    "split_house_key",
    "variants",
]
