"""Army lists to rosters: the units of a BattleScribe / New Recruit list (bot.list_files' neutral tree) written as a
game's roster units, with what was read, what was left out and what needs the player.

Nothing here knows a game. Each game that takes lists has a data file, ``data/list_import/<game id>.yaml``: its
game systems, the profile types holding a stat line, the stats' names, the profiles of units it does not fight, and
one mapping from the names the community data writes (wargear, abilities, rules, with their variants) to the game's
spec tokens. Here: finding the game, walking a list's units and their groups of models, counting, naming
(``tactical-squad``, ``tactical-squad-2``), and sorting every item into a token, an ignored item or a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.data import catalogue, data_root
from bot.list_files import ListFile, Profile, Selection
from rules_core import RefereeError, get_game

SCHEMA = "referee-list-import/1"
_FOLDER = "list_import"


class ListImportError(RefereeError):
    """A list that cannot become rosters (another game system, no units), with what was wrong."""


def _key(name: str) -> str:
    """A name as matched: case, spaces and punctuation do not matter ("Frag Genades" and "frag-genades" are one)."""
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def slug(name: str) -> str:
    """A unit's name as addressed in ``@list/unit`` and a list's name as a roster name: lower case, '-' between."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:56].strip("-") or "unit"  # room for "-NNN"


@dataclass(frozen=True, slots=True)
class GameMapping:
    """One game's data file, read."""

    game: str
    systems: tuple[tuple[str, str], ...]  # (id, name)
    unit_profiles: frozenset[str]
    stats: tuple[tuple[str, tuple[str, ...]], ...]
    left_out_profiles: dict[str, str]
    weapon_profiles: frozenset[str]
    melee_ranges: frozenset[str]
    plain_weapons: frozenset[str]
    tokens: dict[str, str]  # name key -> token
    token_order: tuple[str, ...]
    removes: dict[str, str]  # name key -> token removed
    save_stat: str  # the stat written "3+" (or "-" for none)

    def names(self) -> list[str]:
        """Every name the mapping knows as the data file writes it (for the test against the catalogues)."""
        data = _raw(self.game)
        return [
            *data.get("plain_weapons", []),
            *(name for names in data["tokens"].values() for name in names),
            *(name for names in data.get("removes", {}).values() for name in names),
        ]

    def is_game_system(self, list_file: ListFile) -> bool:
        wanted = {_key(list_file.game_system_id), _key(list_file.game_system_name)} - {""}
        return any(_key(system_id) in wanted or _key(name) in wanted for system_id, name in self.systems)

    def stat_line(self, profile: Profile) -> bool:
        """A profile holding every stat of this game (by any of its names): the shape ``--game`` accepts."""
        return profile.type_name in self.unit_profiles and all(
            any(profile.value(name) is not None for name in names) for _, names in self.stats
        )


def _raw(game: str) -> dict[str, Any]:
    import yaml  # noqa: PLC0415 (only where a list is imported)

    file = data_root() / _FOLDER / f"{game}.yaml"
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("game") != game:
        raise ValueError(f"{file} is not a {SCHEMA} file for {game}")
    return data


@cache
def mapping_for(game: str) -> GameMapping:
    """The list mapping of ``game`` (id or alias); ListImportError when the game takes no lists."""
    game_id = get_game(game).id
    if game_id not in mapped_games():
        raise ListImportError(
            f"Lists are not imported for {game_id} yet; the games that take them: {', '.join(mapped_games())}.",
            token=game,
            example=f"--game {mapped_games()[0]}",
        )
    data = _raw(game_id)
    return GameMapping(
        game=game_id,
        systems=tuple((str(s["id"]), str(s["name"])) for s in data["systems"]),
        unit_profiles=frozenset(data["unit_profiles"]),
        stats=tuple((stat, tuple(names)) for stat, names in data["stats"].items()),
        left_out_profiles=dict(data.get("left_out_profiles", {})),
        weapon_profiles=frozenset(data.get("weapon_profiles", [])),
        melee_ranges=frozenset(_key(r) for r in data.get("melee_ranges", [])),
        plain_weapons=frozenset(_key(n) for n in data.get("plain_weapons", [])),
        tokens={_key(name): token for token, names in data["tokens"].items() for name in names},
        token_order=tuple(data["tokens"]),
        removes={_key(name): token for token, names in data.get("removes", {}).items() for name in names},
        save_stat=str(data.get("save_stat", "")),
    )


def mapped_games() -> list[str]:
    """The ids of the games with a list mapping, in order."""
    folder = data_root() / _FOLDER
    return sorted(f.name.removesuffix(".yaml") for f in folder.iterdir() if f.name.endswith(".yaml"))


@dataclass(frozen=True, slots=True)
class Note:
    """An item of the list and what became of it (``why``), with where it sits."""

    item: str
    where: str
    why: str

    def __str__(self) -> str:
        return f"{self.item} ({self.where}): {self.why}"


@dataclass(slots=True)
class ImportedGroup:
    count: int
    name: str
    stats: list[tuple[str, str]]
    tokens: list[str]

    def spec(self) -> str:
        stats = " ".join(f"{key}{value}" for key, value in self.stats)
        return " ".join(part for part in (f"{self.count}x {self.name}: {stats}", *self.tokens) if part)


@dataclass(slots=True)
class ImportedUnit:
    """One unit of the list: ``spec`` is None when it is left out (``left_out`` says why) or cannot be written
    (``needs`` says what the player must give)."""

    name: str
    slug: str
    force: str
    groups: list[ImportedGroup] = field(default_factory=list)
    ignored: list[Note] = field(default_factory=list)
    needs: list[Note] = field(default_factory=list)
    left_out: str = ""
    unwritable: bool = False

    @property
    def models(self) -> int:
        return sum(group.count for group in self.groups)

    @property
    def spec(self) -> str | None:
        if self.left_out or self.unwritable or not self.groups:
            return None
        return " ; ".join(group.spec() for group in self.groups)


@dataclass(slots=True)
class ImportedList:
    name: str
    game: str
    system: str  # "name (revision N)" as the file says
    warning: str
    units: list[ImportedUnit]

    def written(self) -> list[ImportedUnit]:
        return [unit for unit in self.units if unit.spec is not None]


def find_game(list_file: ListFile, game: str | None = None) -> tuple[GameMapping, str]:
    """The mapping a list imports with, and a warning ('' when the list is for the game itself).

    Without ``game`` the list's own game system decides; a list for another system is refused, naming it. With
    ``game``, a list for another system imports if its units' stat lines have that game's shape, with a warning."""
    system = describe_system(list_file)
    if game is None:
        for game_id in mapped_games():
            mapping = mapping_for(game_id)
            if mapping.is_game_system(list_file):
                return mapping, ""
        raise ListImportError(
            f"The list is for {system}, which the referee does not play. If its units have the stat line of one of "
            f"ours (a later edition of it), name that game to import it anyway.",
            token=list_file.game_system_name or list_file.game_system_id,
            example=f"--game {mapped_games()[0]}",
        )
    mapping = mapping_for(game)
    if mapping.is_game_system(list_file):
        return mapping, ""
    profiles = [p for s in list_file.selections() for p in s.profiles if p.type_name in mapping.unit_profiles]
    if not profiles or not any(mapping.stat_line(p) for p in profiles):
        stats = " ".join(stat for stat, _ in mapping.stats)
        raise ListImportError(
            f"The list is for {system}, and its units have no {mapping.game} stat line ({stats}): it cannot be "
            f"read as {mapping.game}.",
            token=list_file.game_system_name or list_file.game_system_id,
        )
    own = " or ".join(name for _, name in mapping.systems)
    return mapping, (
        f"The list is for {system}, not {own}: its stat lines are read as {mapping.game}, but its rules differ "
        "(check every unit before fighting with it)."
    )


def _check(unit: ImportedUnit, game: str) -> None:
    """A unit whose spec its game's parser refuses (a stat out of the game's range...) needs the player, with the
    parser's own words: it is never saved as something else."""
    spec = unit.spec
    if spec is None:
        return
    try:
        catalogue().game(game).parse_side(spec)
    except RefereeError as error:
        unit.needs.append(Note(unit.name, "the unit as read", f"the {game} rules refuse it: {error.message}"))
        unit.unwritable = True


def describe_system(list_file: ListFile) -> str:
    name = list_file.game_system_name or f"the game system {list_file.game_system_id or '(unnamed)'}"
    return f"{name} (revision {list_file.game_system_revision})" if list_file.game_system_revision else name


def import_list(list_file: ListFile, game: str | None = None) -> ImportedList:
    """Every unit of the list, read with its game's mapping (see find_game for ``game``)."""
    mapping, warning = find_game(list_file, game)
    units: list[ImportedUnit] = []
    seen: dict[str, int] = {}
    for force in list_file.forces:
        for selection in force.selections:
            for top in _units_of(selection, mapping):
                base = slug(top.name)
                seen[base] = seen.get(base, 0) + 1
                name = base if seen[base] == 1 else f"{base}-{seen[base]}"
                unit = _read_unit(top, name, force.catalogue_name or force.name, mapping)
                _check(unit, mapping.game)
                units.append(unit)
    if not units:
        raise ListImportError("The list holds no units.", token=list_file.name or "the list")
    return ImportedList(list_file.name, mapping.game, describe_system(list_file), warning, units)


def _has_profile(selection: Selection, types: frozenset[str] | set[str] | dict[str, str]) -> bool:
    return any(p.type_name in types for s in selection.walk() for p in s.profiles)


def _units_of(selection: Selection, mapping: GameMapping) -> list[Selection]:
    """The units a force's selection holds: itself when it is a unit with profiles, or the units an army-wide
    option wraps; a selection with no profile of a unit is no unit (a list-building switch)."""
    if selection.type in ("unit", "model") or _own_profile(selection, mapping):
        return [selection] if _has_profile(selection, mapping.unit_profiles | set(mapping.left_out_profiles)) else []
    return [unit for child in selection.selections for unit in _units_of(child, mapping)]


def _own_profile(selection: Selection, mapping: GameMapping) -> Profile | None:
    return next((p for p in selection.profiles if p.type_name in mapping.unit_profiles), None)


def _read_unit(top: Selection, name: str, force: str, mapping: GameMapping) -> ImportedUnit:
    unit = ImportedUnit(top.name, name, force)
    if not _has_profile(top, mapping.unit_profiles):
        kind = next(p.type_name for s in top.walk() for p in s.profiles if p.type_name in mapping.left_out_profiles)
        unit.left_out = mapping.left_out_profiles[kind]
        return unit
    groups: list[Selection] = []
    shared: list[Selection] = []  # the unit's own options, for every group

    def sort(selection: Selection, path: str) -> None:
        for child in selection.selections:
            if _own_profile(child, mapping) is not None:
                groups.append(child)
            elif _has_profile(child, set(mapping.left_out_profiles)) and not _has_profile(child, mapping.unit_profiles):
                unit.ignored.append(Note(child.name, f"{path} > {child.name}", "a vehicle or transport in the unit: "
                                         "the referee does not fight it"))  # fmt: skip
            elif _has_profile(child, mapping.unit_profiles):
                sort(child, f"{path} > {child.name}")
            else:
                shared.append(child)

    if _own_profile(top, mapping) is not None:
        groups = [top]
        shared = []
    else:
        sort(top, top.name)
    common: list[str] = []
    reading = _Reading(mapping, unit, set())
    removed = reading.removed
    for rule in top.rules:
        _rule(reading, rule, top.name, common)
    for option in shared:
        _item(reading, option, top.name, common)
    for selection in groups:
        group_tokens = list(common)
        profile = _own_profile(selection, mapping)
        assert profile is not None
        where = top.name if selection is top else f"{top.name} > {selection.name}"
        stats: list[tuple[str, str]] = []
        for stat, names in mapping.stats:
            value = next((v for n in names if (v := profile.value(n)) is not None), None)
            text = (value or "").strip()
            if stat == mapping.save_stat:
                readable = text == "-" or (text.endswith("+") and text[:-1].isdigit())
            else:
                readable = text.isdigit()
            if not readable:
                wanted = "a save such as 3+ (or - for none)" if stat == mapping.save_stat else "a number"
                given = repr(text) if text else "empty"
                unit.needs.append(Note(f"{stat} of {profile.name}", where, f"the file's {stat} is {given}, not "
                                       f"{wanted}: give it by hand"))  # fmt: skip
                unit.unwritable = True
            stats.append((stat, text))
        for rule in selection.rules if selection is not top else ():
            _rule(reading, rule, where, group_tokens)
        for other in selection.profiles:
            if other is not profile:
                _profile(reading, other, where, group_tokens)
        for child in selection.selections:
            _item(reading, child, where, group_tokens)
        tokens = [t for t in mapping.token_order if t in group_tokens and t not in removed]
        same = next((g for g in unit.groups if (g.name, g.stats, g.tokens) == (selection.name, stats, tokens)), None)
        if same is not None:  # models the list keeps apart (one selection each) but that are alike: one group
            same.count += selection.number
        else:
            unit.groups.append(ImportedGroup(selection.number, selection.name, stats, tokens))
    unit.ignored = list(dict.fromkeys(unit.ignored))
    unit.needs = list(dict.fromkeys(unit.needs))
    costs = sorted({c.name.strip() for s in top.walk() for c in s.costs if c.value.strip() not in ("0", "0.0", "")})
    if costs:
        unit.ignored.append(Note(f"points ({', '.join(costs)})", top.name, "the list's costs: not part of a fight"))
    return unit


@dataclass(frozen=True, slots=True)
class _Reading:
    """What reading one unit's items needs: the game's mapping, the unit (for its notes) and the tokens its options
    removed (a default turned off, such as jump packs)."""

    mapping: GameMapping
    unit: ImportedUnit
    removed: set[str]


def _rule(reading: _Reading, rule: str, where: str, tokens: list[str]) -> None:
    mapping, unit = reading.mapping, reading.unit
    token = mapping.tokens.get(_key(rule))
    if token is not None:
        tokens.append(token)
    else:
        unit.ignored.append(Note(rule, f"{where} (rule)", "a rule with no spec token"))


def _item(reading: _Reading, selection: Selection, where: str, tokens: list[str]) -> None:
    """An option (wargear, upgrade) and everything under it."""
    mapping, unit = reading.mapping, reading.unit
    here = f"{where} > {selection.name}"
    token = mapping.tokens.get(_key(selection.name))
    if token is not None:
        tokens.append(token)
    elif _key(selection.name) in mapping.removes:
        reading.removed.add(mapping.removes[_key(selection.name)])
    elif selection.profiles:
        for profile in selection.profiles:
            _profile(reading, profile, here, tokens)
    elif not selection.selections and not selection.rules:
        unit.ignored.append(Note(selection.name, here, "an option with no spec token"))
    for rule in selection.rules:
        _rule(reading, rule, here, tokens)
    for child in selection.selections:
        _item(reading, child, here, tokens)


def _profile(reading: _Reading, profile: Profile, where: str, tokens: list[str]) -> None:
    mapping, unit = reading.mapping, reading.unit
    token = mapping.tokens.get(_key(profile.name))
    if token is not None:
        tokens.append(token)
        return
    if profile.type_name not in mapping.weapon_profiles:
        unit.ignored.append(Note(profile.name, where, f"a {profile.type_name or 'profile'} with no spec token"))
        return
    melee = _key(profile.value("Range") or "") in mapping.melee_ranges
    if not melee:
        unit.ignored.append(Note(profile.name, where, "a shooting weapon: a close-combat referee leaves it out"))
    elif _key(profile.name) in mapping.plain_weapons:
        unit.ignored.append(Note(profile.name, where, "an ordinary close combat weapon: no token"))
    else:
        unit.needs.append(Note(profile.name, where, "a close combat weapon the referee does not know: add its "
                               "token by hand if it has one"))  # fmt: skip
