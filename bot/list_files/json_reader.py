"""New Recruit's JSON list (``{"roster": {...}}``): the tree of a BattleScribe roster, characteristic values under
``"$text"``, plain arrays, and numbers that may be JSON numbers."""

from __future__ import annotations

import json
from typing import Any

from bot.list_files.errors import Budget, ListFileError, shown, whole_number
from bot.list_files.tree import NEW_RECRUIT_JSON, Cost, Force, ListFile, Profile, Selection

_SHAPE = 'a New Recruit list is {"roster": {"name": ..., "forces": [...]}}'


def _text(item: dict[str, Any], key: str, where: str) -> str:
    value = item.get(key, "")
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise ListFileError(f"The JSON's {where} has {key} {shown(value)}, not text; {_SHAPE}.")


def _items(item: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    value = item.get(key, [])
    if not isinstance(value, list) or not all(isinstance(entry, dict) for entry in value):
        raise ListFileError(f"The JSON's {where} has {key} {shown(value)}, not a list of objects; {_SHAPE}.")
    return value


def _profile(item: dict[str, Any], where: str) -> Profile:
    where = f"profile {shown(_text(item, 'name', where))}"
    characteristics = tuple(
        (_text(entry, "name", where), _text(entry, "$text", where)) for entry in _items(item, "characteristics", where)
    )
    return Profile(_text(item, "name", where), _text(item, "typeName", where).strip(), characteristics)


def _selection(item: dict[str, Any], budget: Budget, depth: int) -> Selection:
    name = _text(item, "name", "selection")
    where = f"selection {shown(name)}"
    type_ = _text(item, "type", where)
    number = whole_number(item.get("number", 1), f"Selection {shown(name)}")
    budget.count(type_, number, depth)
    return Selection(
        name=name,
        type=type_,
        number=number,
        profiles=tuple(_profile(entry, where) for entry in _items(item, "profiles", where)),
        rules=tuple(_text(entry, "name", where) for entry in _items(item, "rules", where)),
        categories=tuple(_text(entry, "name", where) for entry in _items(item, "categories", where)),
        costs=tuple(
            Cost(_text(entry, "name", where), _text(entry, "value", where)) for entry in _items(item, "costs", where)
        ),
        selections=tuple(_selection(entry, budget, depth + 1) for entry in _items(item, "selections", where)),
    )


def read_json(data: bytes) -> ListFile:
    """The list in a New Recruit JSON file."""
    try:
        document = json.loads(data)
    except RecursionError:
        raise ListFileError(f"The JSON nests arrays and objects too deep to read; {_SHAPE}.") from None
    except json.JSONDecodeError as error:
        raise ListFileError(f"Line {error.lineno}: the JSON is not well-formed ({error.msg}).") from None
    except ValueError as error:  # not UTF-8/16/32, or a number too long to read
        raise ListFileError(f"The JSON cannot be read ({shown(error)}); save it as UTF-8.") from None
    roster = document.get("roster") if isinstance(document, dict) else None
    if not isinstance(roster, dict):
        raise ListFileError(f"The JSON holds no roster; {_SHAPE}.")
    budget = Budget()
    forces = tuple(
        Force(
            _text(force, "name", "force").strip(),
            _text(force, "catalogueName", "force"),
            tuple(_selection(entry, budget, 1) for entry in _items(force, "selections", "force")),
        )
        for force in _items(roster, "forces", "roster")
    )
    return ListFile(
        name=_text(roster, "name", "roster"),
        game_system_id=_text(roster, "gameSystemId", "roster"),
        game_system_name=_text(roster, "gameSystemName", "roster"),
        game_system_revision=_text(roster, "gameSystemRevision", "roster"),
        source_format=NEW_RECRUIT_JSON,
        battlescribe_version=_text(roster, "battleScribeVersion", "roster"),
        generated_by=_text(roster, "generatedBy", "roster"),
        forces=forces,
    )
