"""The neutral tree an army list file reads into: the list, its forces and their nested selections, each with its
profiles, rules, categories and costs exactly as the file writes them. Nothing here knows a game."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

# Where the list came from: the container and the app's layout, for messages and for the game layer.
BATTLESCRIBE_ROS = "battlescribe-ros"
BATTLESCRIBE_ROSZ = "battlescribe-rosz"
NEW_RECRUIT_JSON = "new-recruit-json"


@dataclass(frozen=True, slots=True)
class Profile:
    """One profile of a selection: ``type_name`` is the file's profile type ("Unit", "Weapon", ...), stripped of the
    spaces some catalogues put before it; ``characteristics`` are (name, value) pairs in the file's order, a value
    the file leaves empty (or writes no value for) kept as ""."""

    name: str
    type_name: str
    characteristics: tuple[tuple[str, str], ...]

    def value(self, name: str) -> str | None:
        """The value of the first characteristic called ``name``, or None if the profile has none."""
        return next((value for key, value in self.characteristics if key == name), None)


@dataclass(frozen=True, slots=True)
class Cost:
    name: str
    value: str  # as written ("35.0", "0"): costs are data, never arithmetic here


@dataclass(frozen=True, slots=True)
class Selection:
    """A selection of the list: ``type`` is what the file says ("unit", "model", "upgrade"), ``number`` its count."""

    name: str
    type: str
    number: int
    profiles: tuple[Profile, ...] = ()
    rules: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    costs: tuple[Cost, ...] = ()
    selections: tuple[Selection, ...] = ()

    def walk(self) -> Iterator[Selection]:
        """This selection and every selection under it, depth first, in the file's order."""
        yield self
        for child in self.selections:
            yield from child.walk()


@dataclass(frozen=True, slots=True)
class Force:
    name: str
    catalogue_name: str
    selections: tuple[Selection, ...] = ()


@dataclass(frozen=True, slots=True)
class ListFile:
    """A whole list: ``source_format`` is one of BATTLESCRIBE_ROS, BATTLESCRIBE_ROSZ, NEW_RECRUIT_JSON;
    ``generated_by`` the app when the file names it (New Recruit writes "https://newrecruit.eu"), else ""."""

    name: str
    game_system_id: str
    game_system_name: str
    game_system_revision: str
    source_format: str
    battlescribe_version: str
    generated_by: str
    forces: tuple[Force, ...]

    def selections(self) -> Iterator[Selection]:
        """Every selection of every force, depth first, in the file's order."""
        for force in self.forces:
            for selection in force.selections:
                yield from selection.walk()
