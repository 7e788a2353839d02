"""Rosters as people write them: names, the YAML file format, validation by each game's parser, @references.

A roster is stored as the spec text the commands accept. It is checked by its game's parser when saved or
imported, so a stored roster always parses. ``@name`` stands for a whole roster and ``@name/unit`` for one of
its units (by the unit's name or its position), anywhere a spec is accepted.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.data import catalogue, data_root, load_samples
from rules_core import RefereeError, all_games, get_game, resolve
from rules_core.errors import given_in
from rules_core.options import OptionType
from rules_core.registry import Game
from rules_core.spec import group_head, split_units

if TYPE_CHECKING:  # the storage stack and YAML are imported only where a roster is stored or read (quick rulings
    # start fast)
    from bot.storage.rosters import RosterInput, SavedRoster

ROSTER_SCHEMA = "referee-rosters/1"
MAX_ROSTER_FILE_BYTES = 256 * 1024
MAX_ROSTERS_PER_FILE = 200
NAME_EXAMPLE = "ultramarines-tactical"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,59}$")
_REFERENCE = re.compile(r"^@([^/\s]+)(?:/(.+))?$")


class RosterError(RefereeError):
    """A roster that cannot be saved, imported or referenced, with what was wrong and a correct example."""


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise RosterError(
            f"'{name[:40]}' is not a roster name: use 1-60 lower-case letters, digits, '-' or '_' (no spaces or '/').",
            token=name[:40],
            example=NAME_EXAMPLE,
        )
    return name


def check_roster(game: str, name: str, spec: str, description: str = "", unit_names: Sequence[str] = ()) -> RosterInput:
    """A roster ready to store: a known game, a valid name, and units its game's parser accepts one by one (with
    ``unit_names``, one name each, unique, written like a roster name)."""
    chosen = catalogue().game(game)
    check_name(name)
    text = " ".join(str(spec).split())
    if text.startswith("@"):
        raise RosterError("A roster holds units, not a reference to another roster.", token=text[:40])
    # Each unit must parse on its own: a roster may hold more units than one side takes (a Bolt Action platoon, several
    # Epic formations), and @name/unit picks one of them. A whole-roster @name is checked again when it is used.

    def parse_units(spec: str) -> None:
        units = split_units(spec)
        for number, unit in enumerate(units, start=1):
            try:
                chosen.parse_side(unit)
            except RefereeError as error:
                where = f"Unit {number} of the roster: " if len(units) > 1 else ""
                raise RosterError(
                    where + error.message, token=error.token, example=error.example, hint=error.hint, fix=error.fix
                ) from None

    try:
        parse_units(text)
    except RosterError as error:  # the spec shown back, marked, and corrected where the fix is certain
        raise given_in(error, "spec", text, parse_units) from None
    names = tuple(str(unit_name) for unit_name in unit_names)
    if names:
        problem = _unit_names_problem(names, len(split_units(text)))
        if problem:
            raise RosterError(f"The roster's units: {problem}; give one name per unit, each unique, in lower-case "
                              "letters, digits, '-' or '_'.", token=name,
                              example="units: [tactical-squad, librarian]")  # fmt: skip
    from bot.storage.rosters import RosterInput  # noqa: PLC0415 (see the imports)

    return RosterInput(chosen.id, name, text, " ".join(str(description).split())[:500], names)


def _unit_names_problem(names: Sequence[str], count: int) -> str:
    """What is wrong with a roster's unit names ('' when nothing is)."""
    bad = next((n for n in names if not _NAME.match(n)), None)
    if bad is not None:
        return f"'{bad[:40]}' is not a unit name"
    if len(names) != count:
        return f"{len(names)} unit names for {count} units"
    return "a unit name is given twice" if len(set(names)) != len(names) else ""


def parse_roster_file(text: str, *, source: str = "the file") -> list[RosterInput]:
    """Check a roster file (schema ``referee-rosters/1``) entirely before anything is saved."""
    if len(text.encode("utf-8")) > MAX_ROSTER_FILE_BYTES:
        raise RosterError(
            f"{source} is over {MAX_ROSTER_FILE_BYTES // 1024} KiB; split it into smaller files.", token=source
        )
    import yaml  # noqa: PLC0415 (see the imports)

    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise RosterError(f"{source} is not valid YAML{where}.", token=source, example=_FILE_EXAMPLE) from None
    if not isinstance(data, dict) or data.get("schema") != ROSTER_SCHEMA:
        raise RosterError(f"{source} is not a roster file: it must start with 'schema: {ROSTER_SCHEMA}'.",
                          token=source, example=_FILE_EXAMPLE)  # fmt: skip
    extra = set(data) - {"schema", "rosters"}
    entries = data.get("rosters")
    if extra or not isinstance(entries, list) or not entries:
        raise RosterError(f"{source} needs a non-empty 'rosters' list (and nothing else beside 'schema').",
                          token=source, example=_FILE_EXAMPLE)  # fmt: skip
    if len(entries) > MAX_ROSTERS_PER_FILE:
        raise RosterError(f"{source} holds {len(entries)} rosters; the limit is {MAX_ROSTERS_PER_FILE}.", token=source)
    rosters: list[RosterInput] = []
    seen: set[tuple[str, str]] = set()
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not {"name", "game", "spec"} <= set(entry) or not set(entry) <= {
            "name", "game", "spec", "description", "units"
        } or not isinstance(entry.get("units", []), list):  # fmt: skip
            raise RosterError(f"Roster {position} of {source} needs name, game and spec (and may add description, "
                              "and units: a list of its units' names).", token=f"roster {position}",
                              example=_FILE_EXAMPLE)  # fmt: skip
        try:
            roster = check_roster(str(entry["game"]), str(entry["name"]), str(entry["spec"]),
                                  str(entry.get("description", "")), entry.get("units", []))  # fmt: skip
        except RefereeError as error:
            raise RosterError(f"Roster {position} ('{entry['name']}') of {source}: {error.message}",
                              token=error.token, example=error.example, hint=error.hint) from None  # fmt: skip
        key = (roster.game, roster.name)
        if key in seen:
            raise RosterError(f"{source} names the {roster.game} roster '{roster.name}' twice.", token=roster.name)
        seen.add(key)
        rosters.append(roster)
    return rosters


def shipped_rosters(game: str | None = None) -> list[RosterInput]:
    """The samples shipped for every game (or ``game``), each a roster by its own name: what ``referee samples``
    shows, ``referee roster import --samples`` imports and Discord's ``/roster samples`` saves, one set. They are
    the sample units of data/samples/ (named by their key), then the sample rosters of data/rosters/ (several
    units, in the roster file format) but those that are a sample already; a name of one game is never given to
    two different rosters (tests/bot/test_cli_rosters.py), else one would be shown and another imported."""
    wanted = None if game is None else get_game(game).id
    from_samples = [
        check_roster(sample_file.game, sample.key, sample.spec, sample.description)
        for sample_file in load_samples()
        for sample in sample_file.samples
    ]
    roster_files = sorted((data_root() / "rosters").iterdir(), key=lambda f: f.name)
    from_files = [
        roster
        for f in roster_files
        if f.name.endswith(".yaml")
        for roster in parse_roster_file(f.read_text(encoding="utf-8"), source=f.name)
    ]
    units = {(roster.game, roster.name, roster.spec) for roster in from_samples}
    from_files = [roster for roster in from_files if (roster.game, roster.name, roster.spec) not in units]
    order = {known.id: position for position, known in enumerate(all_games())}
    every = sorted([*from_samples, *from_files], key=lambda roster: order.get(roster.game, len(order)))
    return [roster for roster in every if wanted is None or roster.game == wanted]


def fighting_pair(game: str, attacker: RosterInput, defender: RosterInput) -> tuple[str, str]:
    """How to name two rosters as the two sides of a combat their game accepts: each whole (``@name``) where it
    can, else its first unit (``@name/1``): a Bolt Action platoon holds several units and close quarters takes one
    a side; a duel is fought around one model. Tried by resolving each pair once (pure, a fixed seed)."""
    chosen = catalogue().game(game)

    def ways(roster: RosterInput) -> list[tuple[str, str]]:
        return [(f"@{roster.name}", roster.spec), (f"@{roster.name}/1", split_units(roster.spec)[0])]

    for (first, first_spec), (second, second_spec) in itertools.product(ways(attacker), ways(defender)):
        try:
            resolve(chosen, first_spec, second_spec, seed=0)
        except RefereeError:
            continue
        return first, second
    return f"@{attacker.name}/1", f"@{defender.name}/1"


def dump_roster_file(rosters: Sequence[SavedRoster]) -> str:
    entries: list[dict[str, Any]] = []
    for r in rosters:
        entry: dict[str, Any] = {"name": r.name, "game": r.game}
        if r.description:
            entry["description"] = r.description
        entry["spec"] = r.spec
        if r.unit_names:
            entry["units"] = list(r.unit_names)
        entries.append(entry)
    import yaml  # noqa: PLC0415 (see the imports)

    return yaml.safe_dump({"schema": ROSTER_SCHEMA, "rosters": entries}, sort_keys=False, allow_unicode=True, width=120)


_FILE_EXAMPLE = (
    f"schema: {ROSTER_SCHEMA} / rosters: [{{name: my-squad, game: {all_games()[0].id}, spec: '10x Marine: WS4 ...'}}]"
)


def split_reference(text: str) -> tuple[str, str | None] | None:
    """(roster name, unit or None) for ``@name`` or ``@name/unit``; None when the text is not a reference."""
    match = _REFERENCE.match(text.strip())
    if match is None:
        return None
    return match.group(1), match.group(2)


def _unit_name(unit: str) -> str:
    # The engine's own grammar, so "Tactical Marine x10" is found as "tactical-marine".
    try:
        return group_head(unit)[1]
    except RefereeError:
        return unit.strip()


def pick_unit(roster: SavedRoster, unit: str) -> str:
    """One unit of a roster: by its position (1, 2...) or its name (case and spaces or '-' do not matter)."""
    units = [part.strip() for part in split_units(roster.spec)]
    if unit.isdigit() and 1 <= int(unit) <= len(units):
        return units[int(unit) - 1]
    wanted = unit.lower().replace("-", " ").strip()
    own = roster.unit_names if len(roster.unit_names) == len(units) else ()
    for name, candidate in zip(own, units, strict=False):  # the units' own names (an imported list's) first
        if name.replace("-", " ") == " ".join(wanted.replace("_", " ").split()):
            return candidate
    for candidate in units:
        if _unit_name(candidate).lower().replace("-", " ") == wanted:
            return candidate
    shown = own or tuple(_unit_name(u) for u in units)
    names = ", ".join(f"{n}: {name}" for n, name in enumerate(shown, start=1))
    raise RosterError(f"The roster '{roster.name}' has no unit '{unit}'. Its units: {names}.",
                      token=f"@{roster.name}/{unit}", example=f"@{roster.name}/1")  # fmt: skip


async def expand(text: str, game: str, lookup: Callable[[str, str], Awaitable[SavedRoster]]) -> str:
    """The spec text a reference stands for (or ``text`` unchanged when it is not a reference)."""
    reference = split_reference(text)
    if reference is None:
        return text
    name, unit = reference
    roster = await lookup(get_game(game).id, name)
    return roster.spec if unit is None else pick_unit(roster, unit)


def _text_options(game: Game, options: Mapping[str, Any]) -> list[str]:
    return [
        spec.name for spec in game.options if spec.type is OptionType.TEXT and isinstance(options.get(spec.name), str)
    ]


def has_references(game: Game, attacker: str, defender: str, options: Mapping[str, Any]) -> bool:
    texts = [attacker, defender, *(options[name] for name in _text_options(game, options))]
    return any(split_reference(text) is not None for text in texts)


async def expand_all(
    game: Game, attacker: str, defender: str, options: Mapping[str, Any],
    lookup: Callable[[str, str], Awaitable[SavedRoster]],
) -> tuple[str, str, dict[str, Any]]:  # fmt: skip
    """Every spec position of one resolution with its @references replaced: both sides and the text options."""
    expanded = dict(options)
    for name in _text_options(game, options):
        expanded[name] = await expand(options[name], game.id, lookup)
    return await expand(attacker, game.id, lookup), await expand(defender, game.id, lookup), expanded


__all__ = [
    "MAX_ROSTER_FILE_BYTES",
    "ROSTER_SCHEMA",
    "RosterError",
    "check_name",
    "check_roster",
    "dump_roster_file",
    "expand",
    "expand_all",
    "has_references",
    "parse_roster_file",
    "pick_unit",
    "split_reference",
]
