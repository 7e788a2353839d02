"""Which 40K units touch, by their ``vs=`` declarations (the referee cannot see the table):

- separate combats (decision 22): units that never touch, directly or through a chain of units, are separate
  combats ("there may be several separate assaults ... the player whose turn it is can choose what order to fight
  the combats in"), each with its own result, morale, sweep and consolidation. One command resolves one combat:
  sides holding several are refused, naming them, with one command per combat to copy (each front end writes it
  as its own command: ``Do.RESOLVE`` or ``Do.ODDS`` with the game's id);
- the declarations the text forbids (decision 24): "models engaged with or supporting a model engaged with a
  single unit must attack that unit", so models within 2" attack only a unit some model of theirs touches; and a
  unit no enemy model fights back is said in the report."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules_core.errors import Commands, Do, Example, IllegalDeclarationError, Setting
from rules_core.games.wh40k.spec import EXAMPLE_SPLIT, GAME_ID, Group, Side, Unit, format_side
from rules_core.options import OptionSpec, OptionValue
from rules_core.report import Event, SideName, event

if TYPE_CHECKING:
    from rules_core.games.wh40k.state import Fight

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


def _links(attacker: Side, defender: Side) -> list[list[int]]:
    """Which units touch which, by their vs= either way: the attacker's units, then the defender's, as numbers."""
    count = len(attacker.units)
    links: list[list[int]] = [[] for _ in range(count + len(defender.units))]
    for mine, theirs, offset, other in ((attacker, defender, 0, count), (defender, attacker, count, 0)):
        for index, unit in enumerate(mine.units):
            for number in enemies_named(unit):
                if number <= len(theirs.units):  # out of range: refused by the fight with its own error
                    links[offset + index].append(other + number - 1)
                    links[other + number - 1].append(offset + index)
    return links


def _one_combat(attacker: Side, defender: Side) -> bool:
    """Whether every unit is joined to every other (the common case, found without listing the combats): a
    union-find over the attacker's units, then the defender's."""
    count = len(attacker.units)
    parent = list(range(count + len(defender.units)))
    for offset, other, units, limit in (
        (0, count, attacker.units, len(parent) - count),
        (count, 0, defender.units, count),
    ):
        for index, unit in enumerate(units, start=offset):
            for number in enemies_named(unit):
                if number <= limit:  # out of range: refused by the fight with its own error
                    mine, theirs = index, other + number - 1
                    while parent[mine] != mine:
                        mine = parent[mine]
                    while parent[theirs] != theirs:
                        theirs = parent[theirs]
                    parent[mine] = theirs
    roots = set()
    for node in range(len(parent)):
        root = node
        while parent[root] != root:
            root = parent[root]
        roots.add(root)
    return len(roots) == 1


def combats(attacker: Side, defender: Side) -> list[Combat]:
    """The separate combats, in the order of their first attacking unit: the units joined by a vs= either way."""
    count = len(attacker.units)
    links = _links(attacker, defender)
    seen = [False] * len(links)
    found: list[Combat] = []
    for start in range(len(links)):  # in order: each combat found from its first attacking unit
        if seen[start]:
            continue
        seen[start] = True
        stack, members = [start], []
        while stack:
            node = stack.pop()
            members.append(node)
            for linked in links[node]:
                if not seen[linked]:
                    seen[linked] = True
                    stack.append(linked)
        members.sort()
        found.append((tuple(m for m in members if m < count), tuple(m - count for m in members if m >= count)))
    return found


def check_declarations(
    attacker: Side, defender: Side, options: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...], *, do: Do
) -> None:
    """What the game refuses before a resolution or its odds (decisions 22 and 24): several separate combats, and
    models within 2" attacking a unit their unit does not touch. The engine itself fights what it is given, so a
    stored record of an earlier version re-runs as it was fought (its table summary reads its groups so)."""
    if not _declared_well(attacker, defender):  # raises the support's refusal itself
        check_one_combat(attacker, defender, options, specs, do=do)  # several combats: refused, with the options


@functools.lru_cache(maxsize=256)
def _declared_well(attacker: Side, defender: Side) -> bool:
    """True for sides of one combat whose support is declared as the text allows (the usual case, and the same
    sides come again and again); False when they hold several combats (refused above, with the options); raises
    the support's refusal itself."""
    if not (len(attacker.units) == 1 or len(defender.units) == 1 or _one_combat(attacker, defender)):
        return False
    check_support(attacker, defender)
    return True


def check_one_combat(
    attacker: Side, defender: Side, options: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...], *, do: Do
) -> None:
    """Refuse sides holding several separate combats, naming them, with one command per combat (``do``: resolve
    them or ask their odds) carrying the options given."""
    if len(attacker.units) == 1 or len(defender.units) == 1 or _one_combat(attacker, defender):
        return  # every unit fights the lone enemy unit, or all are joined: one combat
    found = combats(attacker, defender)
    names = (_labels(attacker), _labels(defender))
    described = [
        f"{number}. " + " and ".join(names[0][i] for i in a) + " against " + " and ".join(names[1][j] for j in d)
        for number, (a, d) in enumerate(found, start=1)
    ]
    commands = tuple(
        Example(
            (
                Setting("attacker", _side_text(attacker, a, d)),
                Setting("defender", _side_text(defender, d, a)),
                *_settings(options, specs, charging=_charges(attacker, a, options)),
            ),
            Do.RESOLVE if do is Do.RESOLVE else Do.ODDS,
            GAME_ID,
        )
        for a, d in found
    )
    raise IllegalDeclarationError(
        f"These sides hold {len(found)} separate combats (units that never touch, by their vs=, directly or "
        f"through other units): {'; '.join(described)}. Each has its own result, morale, sweeping advance and "
        "consolidation, so "
        + ("one command resolves one combat." if do is Do.RESOLVE else "one command gives the odds of one combat."),
        token="vs=",
        example=Commands("One command per combat, in the order you choose", commands),
    )


CHARGE_OPTIONS = frozenset({"charge_distance", "difficult_terrain", "shot_this_turn"})


def _charges(attacker: Side, mine: tuple[int, ...], options: Mapping[str, OptionValue]) -> bool:
    """Whether some attacking unit of one combat charges this turn (decision 21's defaults): in round 1 any unit
    not marked not-charged, in a later round a unit marked charged."""
    if options.get("round", 1) == 1:
        return any(attacker.units[index].charged is not False for index in mine)
    return any(attacker.units[index].charged for index in mine)


def _settings(options: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...], *, charging: bool) -> list[Setting]:
    """The options given, as one combat's command runs them: a combat nobody charges into this turn has no charge
    options, and in round 1 it is a combat going on (``round`` 2), so every command offered runs as given."""
    given = {
        spec.name: Setting(spec.name, int(value) if isinstance(value, float) and value.is_integer() else value)
        for spec in specs
        if (value := options.get(spec.name)) is not None
        and value != spec.default
        and isinstance(value, bool | int | float | str)
        and (charging or spec.name not in CHARGE_OPTIONS)
    }
    if not charging and "round" not in given:
        given["round"] = Setting("round", 2)
    return [given[spec.name] for spec in specs if spec.name in given]


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
    if len(attacker.units) == 1 and len(defender.units) == 1:
        return  # every model in reach fights the one enemy unit, which its unit's models in base contact fight
    for mine, theirs in ((attacker, defender), (defender, attacker)):
        for index, unit in enumerate(mine.units):
            aims = _supporting_aims(unit)
            touched = in_contact_with(unit) if aims else set()
            for group, number, models in aims:
                if number > len(theirs.units) or number in touched:
                    continue  # out of range: refused by the fight with its own error
                if index + 1 in in_contact_with(theirs.units[number - 1]):
                    continue
                label, enemy = _labels(mine)[index], _labels(theirs)[number - 1]
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
    if fight.destroyed_before_fight:  # who fights whom then moved (decision 20); else every unit is alive now
        return []
    attackers, defenders = fight.units[SideName.ATTACKER], fight.units[SideName.DEFENDER]
    fought = {id(target) for state in attackers for target in state.targets}
    fought.update(id(target) for state in defenders for target in state.targets)
    if len(fought) == len(attackers) + len(defenders):
        return []  # the common case: every unit is fought
    found: list[Event] = []
    for side, mine, enemies in (("attacker", attackers, defenders), ("defender", defenders, attackers)):
        for state in mine if len(mine) > 1 else ():
            if id(state) in fought:
                continue
            fighting = [enemy for enemy in enemies if enemy.targets]
            first = fighting[0].unit
            group = first.groups[0]
            simple = not (first.divide or group.split or group.engaged < 2 or len(first.groups) > 1)
            found.append(
                _unopposed(
                    side,
                    state.label,
                    tuple(enemy.label for enemy in fighting),
                    tuple(dict.fromkeys(t.label for e in fighting for t in e.targets)),
                    (first.vs, group.engaged, group.supporting, state.index + 1) if simple else None,
                )
            )
    return found


@functools.lru_cache(maxsize=1024)  # the same fights come again and again: their events are immutable
def _unopposed(
    side: str, label: str, them: tuple[str, ...], whom: tuple[str, ...], split: tuple[int, int, int, int] | None
) -> Event:
    """The ``unopposed`` event: nobody fights ``label`` back, every model of ``them`` fighting ``whom``; ``split``
    (the first of them's vs=, its models in base contact and within 2", and this unit's number) for an example."""
    example = EXAMPLE_SPLIT
    if split is not None:  # 2 of the enemy's models in base contact given to this unit: vs=1:8,2:2
        vs, engaged, supporting, number = split
        moved = min(2, engaged - 1)
        example = f"vs={vs}:{engaged - moved}" + (f"+{supporting}" if supporting else "") + f",{number}:{moved}"
        example += f" on {them[0]}"
    return event(
        "unopposed",
        side=side,
        unit=label,
        note=f"Nobody fights {label} back: every model of {' and '.join(them)} "
        f"{'fights' if len(them) == 1 else 'fight'} {' and '.join(whom)}. Models in base contact with {label} alone "
        'must attack it ("models engaged with ... a single unit must attack that unit"): if some are, say so with '
        f"vs= (e.g. {example}).",
    )
