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
    for name in (game.id, *game.aliases):
        key = name.lower()
        owner = _ALIASES.get(key)
        if owner is not None and owner != game.id:
            raise ValueError(f"the name {name!r} is already taken by the game {owner!r}")
        _ALIASES[key] = game.id
    _GAMES[game.id] = game
    return game


def get_game(name: str) -> Game:
    game_id = _ALIASES.get(str(name).strip().lower())
    if game_id is None:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGameError(f"Unknown game '{name}'. Known games: {known}.", token=str(name), example="40k")
    return _GAMES[game_id]


def all_games() -> tuple[Game, ...]:
    return tuple(_GAMES[game_id] for game_id in sorted(_GAMES))
