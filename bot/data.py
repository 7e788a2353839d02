"""The data files shipped with the install (``data/`` in the repository, ``referee_data`` once installed)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from rules_core import get_game
from rules_core.registry import Game

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
    return resources.files("referee_data")


def sample_files() -> list[Traversable]:
    folder = data_root() / "samples"
    return sorted((f for f in folder.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name)


def parse_sample_file(text: str, *, name: str) -> SampleFile:
    """Check a samples file against its schema (version, game, and a spec and description per sample)."""
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
    target = data_root()
    for part in path.split("/"):
        target = target / part
    try:
        return yaml.safe_load(target.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise DataFileError(f"{path}: cannot read it: {error}") from error


@functools.cache
def _bound(game_id: str) -> Game:
    game = get_game(game_id)
    if not game.data_files:
        return game
    data = {name: read_data_file(path) for name, path in game.data_files.items()}
    try:
        return game.with_data(data)
    except ValueError as error:  # the game's schema check names the file and the entry
        raise DataFileError(str(error)) from error


def game_with_data(game: str | Game) -> Game:
    """The game bound to the data files it declares (its weapon table...), loaded once per process."""
    return _bound(get_game(game).id if isinstance(game, str) else game.id)  # any name of it: one bound copy


@functools.lru_cache(maxsize=1024)
def parsed_side(game_id: str, text: str) -> Any:
    """A side parsed once per process and spec text (parsed sides are immutable, so safely shared).

    Players repeat themselves, and rosters hand out the same text every time: the bot parses each text once.
    A spec that does not parse raises every time (exceptions are not cached).
    """
    return _bound(game_id).parse_side(text)
