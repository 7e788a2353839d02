"""Dice rolls every game makes, recorded as report :class:`Roll` entries.

The games differ in what they roll for, not in how a roll is made and written
down: D6s tested one by one against a target (roll over or roll under), with
failures optionally re-rolled once; 2D6 read as a total or as the highest die;
dice read with no target at all (a distance, a result roll).

Every helper takes what the roll is for as data: ``kind`` (one of the game's ``roll_kinds``, see
:mod:`rules_core.roll_kinds`) and ``side`` (the side it is rolled for), beside the English ``purpose``.
"""

from __future__ import annotations

from rules_core.dice import DiceSource
from rules_core.report import Combine, Op, Reroll, Roll, SideName, Target, new_roll


def roll_each(
    dice: DiceSource,
    purpose: str,
    count: int,
    target: Target,
    *,
    reroll_failures: bool = False,
    kind: str = "",
    side: SideName | None = None,
) -> Roll:
    """``count`` D6 each tested against ``target``; with ``reroll_failures`` every failed die is rolled once more."""
    faces = dice.d6(count)
    at_least, value = target.op is Op.AT_LEAST, target.value
    rerolls: list[Reroll] = []
    if reroll_failures:
        failed = [index for index, face in enumerate(faces) if (face < value if at_least else face > value)]
        if failed:
            for index, face in zip(failed, dice.d6(len(failed)), strict=True):
                rerolls.append(Reroll(index, faces[index], face))
                faces[index] = face
    success = tuple(map(value.__le__ if at_least else value.__ge__, faces))  # face >= value, or face <= value
    return new_roll(purpose, tuple(faces), target, success, sum(success), tuple(rerolls), Combine.EACH, kind, side)


def roll_combined_test(
    dice: DiceSource,
    purpose: str,
    target: Target,
    *,
    count: int = 2,
    combine: Combine = Combine.SUM,
    double_one_passes: bool = False,
    kind: str = "",
    side: SideName | None = None,
) -> Roll:
    """A D6 test read as a total (or the highest die); one success entry for the combined result."""
    faces = dice.d6(count)
    total = sum(faces) if combine is Combine.SUM else max(faces)
    passed = target.met_by(total) or (double_one_passes and count == 2 and faces == [1, 1])
    return new_roll(purpose, tuple(faces), target, (passed,), int(passed), (), combine, kind, side)


def roll_unchecked(
    dice: DiceSource,
    purpose: str,
    count: int,
    combine: Combine = Combine.SUM,
    *,
    kind: str = "",
    side: SideName | None = None,
) -> Roll:
    """Dice with no target (a fall-back distance, an assault result roll), read as ``combine`` says."""
    return new_roll(purpose, tuple(dice.d6(count)), None, (), 0, (), combine, kind, side)


def combined_total(roll: Roll) -> int:
    """The value of a combined roll: the sum, the highest die, or (for ``each``) the sum."""
    return max(roll.dice) if roll.combine is Combine.HIGHEST else sum(roll.dice)
