"""The games the referee knows, registered by id and aliases (like python-chess's variants).

A game is one module under ``rules_core/games/`` that subclasses :class:`Game`
and registers an instance. Adding a game changes nothing in ``bot/`` or ``cogs/``:
the CLI and the slash commands are generated from the registry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules_core.dice import DiceSource
from rules_core.errors import UnknownGameError
from rules_core.options import OptionSpec, OptionValue
from rules_core.report import Report


@dataclass(frozen=True, slots=True)
class TokenDoc:
    """One spec token as `referee help GAME` lists it."""

    token: str
    kind: str  # "stat", "keyword" or "setting"
    help: str
    example: str = ""


class Game(ABC):
    """What every game module declares and implements."""

    id: str
    aliases: tuple[str, ...] = ()
    title: str
    command: str  # the CLI / slash command it lives under: "assault", "duel", "closequarters"
    summary: str
    docs_page: str
    options: tuple[OptionSpec, ...] = ()
    tokens: tuple[TokenDoc, ...] = ()
    example_attacker: str
    example_defender: str
    example_options: Mapping[str, OptionValue] = {}
    spec_shape: str = "units separated by '|', groups of a unit by ';', each group '[N x] name: tokens'."
    # Game data this game reads from YAML files under data/ (name -> path), e.g. a weapon table. rules_core
    # does no I/O: bot/ loads each file and hands the parsed data to with_data().
    data_files: Mapping[str, str] = {}

    def with_data(self, data: Mapping[str, Any]) -> Game:  # noqa: ARG002 (a game with no data files ignores it)
        """This game bound to its data files' parsed contents (``data`` has one entry per ``data_files`` key)."""
        return self

    @abstractmethod
    def parse_side(self, text: str) -> Any:
        """Parse a side spec into this game's typed side, or raise SpecError/LimitError."""

    @abstractmethod
    def format_side(self, side: Any) -> str:
        """The canonical spec text of a parsed side (parse(format(s)) == s)."""

    @abstractmethod
    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        """Resolve the procedure on parsed sides with validated options."""


_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def register(game: Game) -> Game:
    # A game's command is one of its names too (games_named): no id or alias may be another game's command.
    commands = {other.command.lower(): other.id for other in _GAMES.values() if other.id != game.id}
    names = (game.id, *game.aliases)
    for name in names:
        owner = _ALIASES.get(name.lower()) or commands.get(name.lower())
        if owner is not None and owner != game.id:
            raise ValueError(f"the name {name!r} is already taken by the game {owner!r}")
    owner = _ALIASES.get(game.command.lower())
    if owner is not None and owner != game.id:
        raise ValueError(f"the command {game.command!r} is already the name of the game {owner!r}")
    for name in names:  # checked first, kept after: a refused game leaves nothing behind
        _ALIASES[name.lower()] = game.id
    _GAMES[game.id] = game
    return game


def _key(name: object) -> str:
    """A name as compared: case and surrounding space ignored, a slash command's leading '/' too."""
    return " ".join(str(name).strip().lstrip("/").lower().split())


def command_path(game: Game) -> str:
    """The command a game is fought with, the same words everywhere: ``closequarters``, ``duel``, ``assault 40k``
    (a command several games share takes the game's id after it)."""
    shared = sum(other.command == game.command for other in _GAMES.values()) > 1
    return f"{game.command} {game.id}" if shared else game.command


def names_of(game: Game) -> tuple[str, ...]:
    """Every name that finds ``game``: its id, its aliases and its command path."""
    return tuple(dict.fromkeys((game.id, *game.aliases, command_path(game))))


def games_named(name: str) -> tuple[Game, ...]:
    """The games a name means: one for an id, an alias or a command path (``closequarters``, ``assault 40k``,
    ``/duel``), several for a command they share (``assault``), none for an unknown name."""
    key = _key(name)
    game_id = _ALIASES.get(key)
    if game_id is not None:
        return (_GAMES[game_id],)
    command, _, rest = key.partition(" ")
    if rest:  # "assault 40k": the command, then any name of one of its games
        inner = _ALIASES.get(rest)
        found = _GAMES.get(inner or "")
        return (found,) if found is not None and found.command.lower() == command else ()
    return tuple(game for game in all_games() if game.command.lower() == key)


def get_game(name: str) -> Game:
    found = games_named(name)
    if len(found) == 1:
        return found[0]
    if found:
        named = ", ".join(f"{game.id} ({command_path(game)})" for game in found)
        raise UnknownGameError(
            f"'{name}' is the command of {len(found)} games: {named}. Name one of them.",
            token=str(name),
            example=found[0].id,
        )
    known = ", ".join(sorted(_GAMES))
    raise UnknownGameError(
        f"Unknown game '{name}'. Known games: {known} (each also goes by its aliases and its command name).",
        token=str(name),
        example="40k",
    )


def all_games() -> tuple[Game, ...]:
    return tuple(_GAMES[game_id] for game_id in sorted(_GAMES))
