"""Which 40K units touch, by their ``vs=`` declarations (the referee cannot see the table):

- separate combats (decision 21): units that never touch, directly or through a chain of units, are separate
  combats ("there may be several separate assaults ... the player whose turn it is can choose what order to fight
  the combats in"), each with its own result, morale, sweep and consolidation. One command resolves one combat:
  sides holding several are refused, naming them, with one command per combat to copy (each front end writes it
  as its own command: ``Do.RESOLVE`` or ``Do.ODDS`` with the game's id);
- the declarations the text forbids (decision 23): "models engaged with or supporting a model engaged with a
  single unit must attack that unit", so models within 2" attack only a unit some model of theirs touches; and a
  unit no enemy model fights back is said in the report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules_core.errors import Commands, Do, Example, IllegalDeclarationError, Setting
from rules_core.games.wh40k.spec import EXAMPLE_SPLIT, GAME_ID, Group, Side, Unit, format_side
from rules_core.options import OptionSpec, OptionValue
from rules_core.report import Event, SideName, event

if TYPE_CHECKING:
    from rules_core.games.wh40k.state import Fight, UnitState

Combat = tuple[tuple[int, ...], tuple[int, ...]]  # the attacker's and the defender's unit indexes (0-based)


def enemies_named(unit: Unit) -> list[int]:
    """The enemy units (1-based) ``unit`` declares it fights: a character's vs=1,2, its groups' splits with models
    in reach, and its vs= for the groups without a split of their own (as the fight reads them, state.py)."""
    numbers = list(unit.divide)
    for group in unit.groups:
        if group.split:
            numbers += [target for target, engaged, supporting in group.split if engaged + supporting]
        elif group.engaged + group.supporting:
            numbers.append(unit.vs)
    return numbers or [unit.vs]


def combats(attacker: Side, defender: Side) -> list[Combat]:
    """The separate combats, in the order of their first attacking unit: the units joined by a vs= either way."""
    count = len(attacker.units)
    parent = list(range(count + len(defender.units)))  # attacker units, then defender units

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(first: int, second: int) -> None:
        parent[root(first)] = root(second)

    for index, unit in enumerate(attacker.units):
        for number in enemies_named(unit):
            if number <= len(defender.units):  # out of range: refused by the fight with its own error
                join(index, count + number - 1)
    for index, unit in enumerate(defender.units):
        for number in enemies_named(unit):
            if number <= count:
                join(count + index, number - 1)
    found: dict[int, tuple[list[int], list[int]]] = {}
    for node in range(len(parent)):
        ours, theirs = found.setdefault(root(node), ([], []))
        (ours if node < count else theirs).append(node if node < count else node - count)
    return sorted(((tuple(a), tuple(d)) for a, d in found.values()), key=lambda c: (c[0] or (count,), c[1]))


def check_one_combat(
    attacker: Side, defender: Side, options: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...], *, do: Do
) -> None:
    """Refuse sides holding several separate combats, naming them, with one command per combat (``do``: resolve
    them or ask their odds) carrying the options given."""
    found = combats(attacker, defender)
    if len(found) < 2:
        return
    names = (_labels(attacker), _labels(defender))
    described = [
        f"{number}. " + " and ".join(names[0][i] for i in a) + " against " + " and ".join(names[1][j] for j in d)
        for number, (a, d) in enumerate(found, start=1)
    ]
    given = [
        Setting(spec.name, int(value) if isinstance(value, float) and value.is_integer() else value)
        for spec in specs
        if (value := options.get(spec.name)) is not None
        and value != spec.default
        and isinstance(value, bool | int | float | str)
    ]
    commands = tuple(
        Example(
            (Setting("attacker", _side_text(attacker, a, d)), Setting("defender", _side_text(defender, d, a)), *given),
            Do.RESOLVE if do is Do.RESOLVE else Do.ODDS,
            GAME_ID,
        )
        for a, d in found
    )
    raise IllegalDeclarationError(
        f"These sides hold {len(found)} separate combats (units that never touch, by their vs=, directly or "
        f"through other units): {'; '.join(described)}. Each has its own result, morale, sweeping advance and "
        "consolidation, so one command resolves one combat.",
        token="vs=",
        example=Commands("One command per combat, in the order you choose", commands),
    )


def _labels(side: Side) -> list[str]:
    """Each unit as the report names it ("Ork Boy #2" where names repeat)."""
    seen = Counter(unit.name for unit in side.units)
    numbering: Counter[str] = Counter()
    labels = []
    for unit in side.units:
        numbering[unit.name] += 1
        labels.append(f"{unit.name} #{numbering[unit.name]}" if seen[unit.name] > 1 else unit.name)
    return labels


def _side_text(side: Side, mine: tuple[int, ...], theirs: tuple[int, ...]) -> str:
    """The units ``mine`` of ``side`` as one combat's side, their vs= renumbered to the enemy units ``theirs``, in
    the spec's short form (counts that are the defaults left out)."""
    renumber = {old + 1: new for new, old in enumerate(theirs, start=1)}

    def to(number: int) -> int:
        return renumber.get(number, 1)

    units = []
    for index in mine:
        unit = side.units[index]
        groups = tuple(replace(group, split=tuple((to(t), e, s) for t, e, s in group.split)) for group in unit.groups)
        units.append(
            replace(
                unit,
                groups=groups,
                vs=to(unit.vs),
                divide=tuple(to(n) for n in unit.divide),
                hits=tuple((to(n), most) for n, most in unit.hits),
            )
        )
    shown = Side(tuple(units))
    return " | ".join(
        " ; ".join(_short(text, group) for text, group in zip(unit_text.split(" ; "), unit.groups, strict=True))
        for unit_text, unit in zip(format_side(shown).split(" | "), shown.units, strict=True)
    )


def _short(text: str, group: Group) -> str:
    """A group as the canonical form writes it, without the defaults a player leaves out (engaged= all of it,
    supporting=0, vs=1)."""
    head, _, words = text.partition(": ")
    dropped = {"supporting=0", "vs=1"} | ({f"engaged={group.count}"} if group.engaged == group.count else set())
    return f"{head}: " + " ".join(word for word in words.split(" ") if word not in dropped)


def in_contact_with(unit: Unit) -> set[int]:
    """The enemy units (1-based) that ``unit``'s models in base contact fight, as it declares them."""
    numbers: set[int] = set()
    for group in unit.groups:
        if group.split:
            numbers |= {target for target, engaged, _ in group.split if engaged}
        elif group.engaged:
            numbers |= set(unit.divide) or {unit.vs}
    return numbers


def _supporting_aims(unit: Unit) -> list[tuple[Group, int, int]]:
    """(group, enemy unit, models within 2") for each share of ``unit``'s supporting models."""
    aims: list[tuple[Group, int, int]] = []
    for group in unit.groups:
        if group.split:
            aims += [(group, target, supporting) for target, _, supporting in group.split if supporting]
        elif group.supporting:
            aims.append((group, unit.vs, group.supporting))
    return aims


def check_support(attacker: Side, defender: Side) -> None:
    """Models within 2" of an engaged friend attack only a unit some model of their own unit touches: one that its
    models in base contact fight, or one whose models in base contact fight it (base contact is mutual). Models
    engaged with or supporting a model engaged with a single unit must attack that unit (MULTIPLE COMBATS)."""
    for mine, theirs in ((attacker, defender), (defender, attacker)):
        labels, their_labels = _labels(mine), _labels(theirs)
        for index, unit in enumerate(mine.units):
            touched = in_contact_with(unit)
            for group, number, models in _supporting_aims(unit):
                if number > len(theirs.units) or number in touched:
                    continue  # out of range: refused by the fight with its own error
                if index + 1 in in_contact_with(theirs.units[number - 1]):
                    continue
                label, enemy = labels[index], their_labels[number - 1]
                raise IllegalDeclarationError(
                    f"{label}'s {models} {group.name} within 2\" fight {enemy}, but no model of {label} is in base "
                    f"contact with {enemy} (and no model of {enemy} in base contact fights {label}): models within "
                    '2" support a friend in base contact, and "models engaged with or supporting a model engaged '
                    'with a single unit must attack that unit". Give them to a unit their friends touch, or say '
                    f"which of {label}'s models are in base contact with {enemy} (after ':' in vs=).",
                    token=f"vs={number}" if not group.split else "vs=",
                    example=EXAMPLE_SPLIT,
                )


def unopposed(fight: Fight) -> list[Event]:
    """A unit that no enemy model fights back (a second unit charging into a fight), said: the enemy models in base
    contact with it alone must attack it, so either none are, or the declarations leave them out."""
    if fight.destroyed_before_fight:  # who fights whom then moved (decision 20)
        return []
    found: list[Event] = []
    for side in SideName:
        enemies = [e for e in fight.units[side.other] if e.alive()]
        for state in fight.units[side] if len(fight.units[side]) > 1 else ():
            if not state.alive() or any(state in enemy.targets for enemy in enemies):
                continue
            fighting = [enemy for enemy in enemies if enemy.targets]
            whom = " and ".join(dict.fromkeys(t.label for e in fighting for t in e.targets))
            them = " and ".join(enemy.label for enemy in fighting)
            found.append(
                event(
                    "unopposed",
                    side=side.value,
                    unit=state.label,
                    note=f"Nobody fights {state.label} back: every model of {them} "
                    f"{'fights' if len(fighting) == 1 else 'fight'} {whom}. Models in base contact with "
                    f'{state.label} alone must attack it ("models engaged with ... a single unit must attack that '
                    f'unit"): if some are, say so with vs= ({_split_example(fighting[0], state.index + 1)}).',
                )
            )
    return found


def _split_example(enemy: UnitState, number: int) -> str:
    """A split giving 2 of ``enemy``'s models in base contact to unit ``number``: "e.g. vs=1:8,2:2 on Ork"."""
    group = enemy.unit.groups[0]
    if enemy.unit.divide or group.split or group.engaged < 2 or len(enemy.unit.groups) > 1:
        return f"e.g. {EXAMPLE_SPLIT}"
    moved = min(2, group.engaged - 1)
    rest = f"{group.engaged - moved}" + (f"+{group.supporting}" if group.supporting else "")
    return f"e.g. vs={enemy.unit.vs}:{rest},{number}:{moved} on {enemy.label}"
