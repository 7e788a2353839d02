"""The data files shipped with the install (``data/`` in the repository, installed as ``bot.shipped_data``, which
bot/shipped_data links to), and the catalogue of games bound to them.

rules_core does no I/O, so a game that reads a table (the duel's weapons) is whole only once bot/ has read its files
and bound them (``Game.with_data``). :func:`catalogue` does that once per process for every registered game: the
CLI and the bot ask it for a game by any of its names, and nothing else binds data. The bot binds every game at
start-up (``catalogue().games()``); the CLI binds only the game a command uses, and imports YAML only to read a
file (quick rulings start fast). The
catalogue lives here, beside the reader, because binding and reading must agree on each game's ``data_files``, and
it is this module's one consumer of the tables: a module of its own would hold a dozen lines and import this one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from rules_core.registry import Game, all_games, get_game

SAMPLES_SCHEMA = "referee-samples/1"


@dataclass(frozen=True, slots=True)
class Sample:
    key: str
    description: str
    spec: str


@dataclass(frozen=True, slots=True)
class SampleFile:
    game: str
    samples: tuple[Sample, ...]


class DataFileError(ValueError):
    """A shipped data file that does not match its schema."""


def data_root() -> Traversable:
    return resources.files("bot.shipped_data")


def sample_files() -> list[Traversable]:
    folder = data_root() / "samples"
    return sorted((f for f in folder.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name)


def parse_sample_file(text: str, *, name: str) -> SampleFile:
    """Check a samples file against its schema (version, game, and a spec and description per sample)."""
    import yaml  # noqa: PLC0415 (see the module's docstring)

    data: Any = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise DataFileError(f"{name}: the top level must be a mapping")
    if data.get("schema") != SAMPLES_SCHEMA:
        raise DataFileError(f"{name}: 'schema' must be {SAMPLES_SCHEMA!r}")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise DataFileError(f"{name}: 'game' must name a game")
    units = data.get("units")
    if not isinstance(units, dict) or not units:
        raise DataFileError(f"{name}: 'units' must map names to samples")
    samples = []
    for key, entry in units.items():
        if not isinstance(entry, dict) or set(entry) != {"description", "spec"}:
            raise DataFileError(f"{name}: sample {key!r} needs exactly 'description' and 'spec'")
        if not all(isinstance(entry[field], str) and entry[field].strip() for field in ("description", "spec")):
            raise DataFileError(f"{name}: sample {key!r} has an empty description or spec")
        samples.append(Sample(str(key), entry["description"].strip(), " ".join(entry["spec"].split())))
    extra = set(data) - {"schema", "game", "units"}
    if extra:
        raise DataFileError(f"{name}: unknown top-level keys {sorted(extra)}")
    return SampleFile(game, tuple(samples))


def load_samples() -> list[SampleFile]:
    return [parse_sample_file(f.read_text(encoding="utf-8"), name=f.name) for f in sample_files()]


def read_data_file(path: str) -> Any:
    """One YAML file under data/ (``weapons/duel.yaml``), parsed."""
    import yaml  # noqa: PLC0415 (see the module's docstring)

    target = data_root()
    for part in path.split("/"):
        target = target / part
    try:
        return yaml.safe_load(target.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise DataFileError(f"{path}: cannot read it: {error}") from error


def bind(game: Game) -> Game:
    """``game`` bound to the data files it declares (itself when it declares none); DataFileError naming the file
    and the entry when one does not match the game's schema."""
    if not game.data_files:
        return game
    data = {name: read_data_file(path) for name, path in game.data_files.items()}
    try:
        return game.with_data(data)
    except ValueError as error:  # the game's schema check names the file and the entry
        raise DataFileError(str(error)) from error


class Catalogue:
    """Every registered game bound to its data files, each read once, and the sides parsed through them."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self._games = dict(games)
        # A side parsed once per catalogue and spec text (parsed sides are immutable, so safely shared). Players
        # repeat themselves, and rosters hand out the same text every time. A spec that does not parse raises
        # every time (exceptions are not cached).
        self.parsed_side = functools.lru_cache(maxsize=1024)(self._parse)

    @classmethod
    def build(cls) -> Catalogue:
        return cls({game.id: bind(game) for game in all_games()})

    def game(self, name: str | Game) -> Game:
        """The bound game named by any of its names (id, alias, command path) or by its registered object; the
        registry's UnknownGameError for a name no game or several games answer to. A game registered after the
        catalogue was built is bound on first use."""
        chosen = name if isinstance(name, Game) else get_game(name)
        if chosen.id not in self._games:
            self._games[chosen.id] = bind(get_game(chosen.id))
        return self._games[chosen.id]

    def games(self) -> tuple[Game, ...]:
        """Every registered game, bound, in the registry's order."""
        return tuple(self.game(game.id) for game in all_games())

    def _parse(self, game_id: str, text: str) -> Any:
        return self.game(game_id).parse_side(text)


@functools.cache
def catalogue() -> Catalogue:
    """The process's catalogue: each game bound on first use (``games()`` binds them all, as the bot does at
    start-up)."""
    return Catalogue({})
