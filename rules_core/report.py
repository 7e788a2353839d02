"""The report every resolver returns: immutable, JSON-shaped the same for every game.

The JSON shape (``Report.to_dict``) is a contract with the renderers, the store
and other people's tools; docs/report.md documents it. A report depends only on
the game, the normalised inputs, the options, the seed and the engine version,
so the same seed and inputs give byte-identical JSON.

Rolls: ``dice`` are the final faces (after any re-roll), ``success`` says which
of them succeeded, and ``rerolls`` records each face that was replaced
(``{"index", "from", "to"}``). ``combine`` says how the dice are read: ``each``
(every die tested on its own), ``sum`` (2D6 Leadership, fall-back distance) or
``highest`` (2D6 pick the highest); for ``sum`` and ``highest`` ``success``
holds one entry, for the combined result. ``target`` is null for rolls that
are not tested against a number (a fall-back distance).

What a roll is for, as data: ``kind`` is one of its game's declared ``roll_kinds`` (``to_hit``, ``save``,
``leadership``...: see :mod:`rules_core.roll_kinds`) and ``side`` the side it was rolled for (whose models hit,
save or test). ``purpose`` stays the English words for people; the dice statistics and the translations read
``kind`` and ``side``. Reports of engines before 0.3.0 have neither: their rolls load with an empty kind and no
side, and write none back, so a stored record round-trips byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias

from rules_core.version import ENGINE_VERSION, SCHEMA_VERSION

Json: TypeAlias = Any  # a value built only of str, int, float, bool, None, tuples and FrozenMap


class FrozenMap(Mapping[str, Json]):
    """An immutable, hashable mapping used for the open-ended parts of a report."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Json] | None = None, /, **kwargs: Json) -> None:
        # Reports build many small maps (one per event): one comprehension, scalars passed through untouched.
        source = {**items, **kwargs} if items and kwargs else (items or kwargs)
        scalars = _SCALARS
        self._items: dict[str, Json] = {
            key if type(key) is str else str(key): value if type(value) in scalars else freeze(value)
            for key, value in source.items()
        }

    def __getitem__(self, key: str) -> Json:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze(value: Json) -> Json:
    """Turn JSON-like data (dicts, lists) into immutable, hashable equivalents."""
    if type(value) in _SCALARS:  # the common case, without the costly ABC checks below
        return value
    if isinstance(value, FrozenMap):
        return value
    if isinstance(value, Mapping):
        return FrozenMap(value)
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    if isinstance(value, StrEnum):
        return value.value
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"not JSON data: {value!r}")


def thaw(value: Json) -> Json:
    """The plain-JSON form of frozen data (dicts and lists)."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(item) for item in value]
    return value


class Op(StrEnum):
    AT_LEAST = ">="
    AT_MOST = "<="


class Combine(StrEnum):
    EACH = "each"
    SUM = "sum"
    HIGHEST = "highest"


class SideName(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> SideName:
        return SideName.DEFENDER if self is SideName.ATTACKER else SideName.ATTACKER


class Winner(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"
    DRAW = "draw"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Target:
    op: Op
    value: int

    def met_by(self, total: int) -> bool:
        return total >= self.value if self.op is Op.AT_LEAST else total <= self.value


@dataclass(frozen=True, slots=True)
class Reroll:
    index: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class Roll:
    purpose: str
    dice: tuple[int, ...]
    target: Target | None
    success: tuple[bool, ...]
    successes: int
    rerolls: tuple[Reroll, ...] = ()
    combine: Combine = Combine.EACH
    kind: str = ""  # one of the game's roll_kinds; empty only in reports of engines before 0.3.0
    side: SideName | None = None  # the side the roll was made for; None only where kind is empty

    def to_dict(self) -> dict[str, Json]:
        data: dict[str, Json] = {
            "purpose": self.purpose,
            "dice": list(self.dice),
            "target": None if self.target is None else {"op": self.target.op.value, "value": self.target.value},
            "success": list(self.success),
            "successes": self.successes,
            "rerolls": [{"index": r.index, "from": r.before, "to": r.after} for r in self.rerolls],
            "combine": self.combine.value,
        }
        if self.kind:
            data["kind"] = self.kind
            data["side"] = None if self.side is None else self.side.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Roll:
        target = data["target"]
        return cls(
            purpose=str(data["purpose"]),
            dice=tuple(int(d) for d in data["dice"]),
            target=None if target is None else Target(Op(target["op"]), int(target["value"])),
            success=tuple(bool(s) for s in data["success"]),
            successes=int(data["successes"]),
            rerolls=tuple(Reroll(int(r["index"]), int(r["from"]), int(r["to"])) for r in data["rerolls"]),
            combine=Combine(data.get("combine", "each")),
            kind=str(data.get("kind") or ""),
            side=None if data.get("side") is None else SideName(data["side"]),
        )


_ROLL_SLOTS: Any = Roll
_ROLL_SETTERS = tuple(
    getattr(_ROLL_SLOTS, name).__set__
    for name in ("purpose", "dice", "target", "success", "successes", "rerolls", "combine", "kind", "side")
)


def new_roll(  # noqa: PLR0917 (Roll's nine fields, in its order)
    purpose: str,
    dice: tuple[int, ...],
    target: Target | None,
    success: tuple[bool, ...],
    successes: int,
    rerolls: tuple[Reroll, ...],
    combine: Combine,
    kind: str,
    side: SideName | None,
) -> Roll:
    """``Roll(...)`` with every field given, made faster (see ``event``): the dice helpers' constructor."""
    made = _new(Roll)
    purpose_, dice_, target_, success_, successes_, rerolls_, combine_, kind_, side_ = _ROLL_SETTERS
    purpose_(made, purpose)
    dice_(made, dice)
    target_(made, target)
    success_(made, success)
    successes_(made, successes)
    rerolls_(made, rerolls)
    combine_(made, combine)
    kind_(made, kind)
    side_(made, side)
    return made


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened or must happen: ``kind`` plus flat, game-specific fields."""

    kind: str
    fields: FrozenMap = field(default_factory=FrozenMap)

    def get(self, key: str, default: Json = None) -> Json:
        return self.fields.get(key, default)

    def to_dict(self) -> dict[str, Json]:
        return {"kind": self.kind, **thaw(self.fields)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Event:
        fields = {key: value for key, value in data.items() if key != "kind"}
        return cls(str(data["kind"]), FrozenMap(fields))


# A resolution makes dozens of rolls and events. A frozen dataclass's __init__ sets each slot through the frozen
# object.__setattr__; ``event`` and ``new_roll`` set the same slots through their descriptors, which is a third
# faster: the same immutable objects, equal to those the constructors make (tests/rules_core/test_report.py).
_new = object.__new__
_EVENT_SLOTS: Any = Event
_SET_KIND, _SET_FIELDS = _EVENT_SLOTS.kind.__set__, _EVENT_SLOTS.fields.__set__


def event(kind: str, **fields: Json) -> Event:
    made = _new(Event)
    _SET_KIND(made, kind)
    if _SCALARS.issuperset(map(type, fields.values())):  # the common case: a fresh dict of str keys and scalars,
        frozen = _new(FrozenMap)  # kept as it is rather than copied
        frozen._items = fields
        _SET_FIELDS(made, frozen)
    else:
        _SET_FIELDS(made, FrozenMap(fields))
    return made


@dataclass(frozen=True, slots=True)
class Step:
    title: str
    rolls: tuple[Roll, ...] = ()
    events: tuple[Event, ...] = ()

    def to_dict(self) -> dict[str, Json]:
        return {
            "title": self.title,
            "rolls": [roll.to_dict() for roll in self.rolls],
            "events": [ev.to_dict() for ev in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Step:
        return cls(
            title=str(data["title"]),
            rolls=tuple(Roll.from_dict(r) for r in data["rolls"]),
            events=tuple(Event.from_dict(e) for e in data["events"]),
        )


@dataclass(frozen=True, slots=True)
class SideResult:
    lost: int
    remaining: int
    extra: FrozenMap = field(default_factory=FrozenMap)

    def to_dict(self) -> dict[str, Json]:
        return {"lost": self.lost, "remaining": self.remaining, **thaw(self.extra)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> SideResult:
        extra = {key: value for key, value in data.items() if key not in ("lost", "remaining")}
        return cls(int(data["lost"]), int(data["remaining"]), FrozenMap(extra))


@dataclass(frozen=True, slots=True)
class Result:
    outcome: str
    winner: Winner
    attacker: SideResult
    defender: SideResult

    def side(self, name: SideName) -> SideResult:
        # == rather than `is`: a plain "attacker" string (from JSON) must find the attacker too.
        return self.attacker if name == SideName.ATTACKER else self.defender

    def to_dict(self) -> dict[str, Json]:
        return {
            "outcome": self.outcome,
            "winner": self.winner.value,
            "attacker": self.attacker.to_dict(),
            "defender": self.defender.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Result:
        return cls(
            outcome=str(data["outcome"]),
            winner=Winner(data["winner"]),
            attacker=SideResult.from_dict(data["attacker"]),
            defender=SideResult.from_dict(data["defender"]),
        )


@dataclass(frozen=True, slots=True)
class Inputs:
    attacker: str
    defender: str
    options: FrozenMap

    def to_dict(self) -> dict[str, Json]:
        return {"attacker": self.attacker, "defender": self.defender, "options": thaw(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Inputs:
        return cls(str(data["attacker"]), str(data["defender"]), FrozenMap(data["options"]))


@dataclass(frozen=True, slots=True)
class Report:
    game: str
    seed: int
    inputs: Inputs
    steps: tuple[Step, ...]
    result: Result
    engine_version: str = ENGINE_VERSION
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Json]:
        return {
            "schema_version": self.schema_version,
            "game": self.game,
            "engine_version": self.engine_version,
            "seed": self.seed,
            "inputs": self.inputs.to_dict(),
            "steps": [step.to_dict() for step in self.steps],
            "result": self.result.to_dict(),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """Deterministic JSON: the same report always gives the same bytes."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> Report:
        return cls(
            schema_version=int(data["schema_version"]),
            game=str(data["game"]),
            engine_version=str(data["engine_version"]),
            seed=int(data["seed"]),
            inputs=Inputs.from_dict(data["inputs"]),
            steps=tuple(Step.from_dict(s) for s in data["steps"]),
            result=Result.from_dict(data["result"]),
        )

    @classmethod
    def from_json(cls, text: str) -> Report:
        return cls.from_dict(json.loads(text))
