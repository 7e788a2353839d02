"""The 40K engine's shortcuts give exactly what the general rules give: casualties among single-wound models,
and the majorities of a unit with one profile left (they exist for speed: the bot answers within Discord's
deadline with a resolution on its critical path)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules_core.games.wh40k import spec
from rules_core.games.wh40k.allocation import _allocate_any, _allocate_single_wounds
from rules_core.games.wh40k.majorities import majority, snapshot
from rules_core.games.wh40k.state import Role, UnitState
from rules_core.report import SideName

KEYWORDS = ("", "dies-first", "dies-last")


def random_unit(chance: random.Random, wounds: int) -> UnitState:
    groups = []
    for index in range(chance.randint(1, 3)):
        count = chance.randint(1, 6)
        supporting = chance.randint(0, count - 1)
        engaged = chance.randint(1, count - supporting)
        save = chance.choice(("3+", "4+", "5+"))
        groups.append(f"{count}x G{index}: WS4 S4 T{chance.choice((3, 4))} W{wounds} I4 A1 Ld8 Sv{save} "
                      f"{chance.choice(KEYWORDS)} engaged={engaged} supporting={supporting}")  # fmt: skip
    side = spec.parse_side("; ".join(groups))
    state = UnitState(side.units[0], SideName.DEFENDER, 0, "Target")
    for g in state.groups:  # some already dead
        for model in range(len(g.wounds)):
            if chance.random() < 0.25:
                g.wound(model, g.wounds[model])
    return state


def picture(state: UnitState) -> list[tuple[list[int], list[Role]]]:
    return [(list(g.wounds), list(g.roles)) for g in state.groups]


@pytest.mark.parametrize("seed", range(300))
def test_single_wound_casualties_fall_as_the_general_rule_says(seed: int) -> None:
    chance = random.Random(seed)
    first = random_unit(chance, 1)
    second = random_unit(random.Random(seed), 1)
    wounds = chance.randint(0, 20)
    save_type = (chance.choice((3, 4, 5)), None)
    assert _allocate_single_wounds(first, wounds, save_type) == _allocate_any(second, wounds, save_type)
    assert picture(first) == picture(second)


@pytest.mark.parametrize("seed", range(100))
def test_the_majorities_of_one_profile_left_are_that_profile(seed: int) -> None:
    chance = random.Random(seed)
    state = random_unit(chance, chance.randint(1, 3))
    for g in state.groups[1:]:  # only the first group's profile is left alive
        for model in range(len(g.wounds)):
            g.wound(model, g.wounds[model])
    first = state.groups[0]
    first.wounds[0] = first.full_wounds  # and at least one of its models
    first.alive_by_role = [sum(1 for w, r in zip(first.wounds, first.roles, strict=True) if w > 0 and r is role)
                           for role in Role]  # fmt: skip
    [(group, alive)] = state.alive_profiles()
    counts = Counter({group.profile.ws: alive})
    expected = (majority(counts, on_tie="lowest")[0], group.profile.t, None, ((group.profile.save_type, alive),))
    snap = snapshot(state)
    assert (snap.ws, snap.t, snap.t_note, snap.save_counts) == expected
