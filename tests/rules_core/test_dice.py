from __future__ import annotations

import pytest

from rules_core.dice import MAX_SEED, DiceSource, ScriptedDice, SeededDice, new_seed
from rules_core.errors import DiceError


def test_scripted_dice_hand_out_their_faces_in_order() -> None:
    dice = ScriptedDice([1, 6, 3])
    assert dice.d6(2) == [1, 6]
    assert dice.d6(1) == [3]
    dice.finish()


def test_scripted_dice_fail_when_asked_for_too_many() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(DiceError, match="asked for 2 dice"):
        dice.d6(2)


def test_scripted_dice_fail_when_too_few_were_rolled() -> None:
    dice = ScriptedDice([4, 5])
    dice.d6(1)
    with pytest.raises(DiceError, match="1 scripted dice were never rolled"):
        dice.finish()


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.5])
def test_scripted_faces_must_be_d6_faces(face: object) -> None:
    with pytest.raises(DiceError):
        ScriptedDice([face])  # type: ignore[list-item]


def test_seeded_dice_replay_exactly() -> None:
    assert SeededDice(12345).d6(50) == SeededDice(12345).d6(50)
    assert SeededDice(1).d6(50) != SeededDice(2).d6(50)


def test_seeded_dice_are_known_values_for_a_seed() -> None:
    # Pinned so that a change of generator (which would break replay of stored combats) fails loudly.
    assert SeededDice(42).d6(10) == [4, 1, 2, 2, 5, 5, 6, 1, 3, 1]


def test_seeded_dice_cover_every_face_evenly() -> None:
    faces = SeededDice(7).d6(60_000)
    counts = [faces.count(face) for face in range(1, 7)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    # Each face expects 10,000 (sd ~91): 6 sd either way.
    assert all(9_450 < count < 10_550 for count in counts)


def test_fresh_seeds_come_from_the_os_and_fit_json() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) > 15
    assert all(0 <= seed <= MAX_SEED for seed in seeds)
    assert isinstance(SeededDice().seed, int)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, "12", 1.5, True])
def test_bad_seeds_are_refused_with_an_example(seed: object) -> None:
    with pytest.raises(DiceError, match="Example: seed=12345"):
        SeededDice(seed)  # type: ignore[arg-type]


def test_both_sources_satisfy_the_protocol() -> None:
    assert isinstance(SeededDice(1), DiceSource)
    assert isinstance(ScriptedDice([]), DiceSource)
