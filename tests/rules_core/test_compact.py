"""One short line a step (``Game.step_line``): the generic default any game gets from its rolls and events, and
40K's own words; never a policy paragraph, never longer than a phone's few lines."""

from __future__ import annotations

import pytest

from rules_core import all_games, compact, get_game, resolve
from rules_core.registry import Game
from rules_core.report import Combine, Event, FrozenMap, Op, Roll, Step, Target, event
from tests.rules_core.helpers40k import MARINE, run


def each(purpose: str, dice: tuple[int, ...], need: int) -> Roll:
    success = tuple(face >= need for face in dice)
    return Roll(purpose, dice, Target(Op.AT_LEAST, need), success, sum(success))


def test_the_default_line_counts_successes_and_says_the_casualties() -> None:
    step = Step(
        "Round 1: Grenadiers strike",
        (each("to damage (4 men)", (5, 5, 4, 1), 4), each("exceptional damage (each 6 re-rolled)", (2,), 6)),
        (event("casualty", side="defender", unit="Infantry", models=3),),
    )
    assert compact.step_line(step) == (
        "Round 1: Grenadiers strike: to damage 3/4, exceptional damage 0/1: 3 Infantry removed"
    )


def test_a_step_without_dice_says_its_first_notes_first_sentence_and_never_a_policy() -> None:
    policy = Event("policy", FrozenMap(note="Which models die (the owner's choice): a long paragraph."))
    result = event("result", note="The defender inflicted more wounds (9 to 5) and wins. Then more.")
    assert compact.step_line(Step("Assault result", (), (policy, result))) == (
        "Assault result: The defender inflicted more wounds and wins"
    )


def test_a_total_roll_says_passed_or_failed() -> None:
    total = Roll("Leadership (Ork Boy)", (3, 5), Target(Op.AT_MOST, 7), (False,), 0, combine=Combine.SUM)
    assert compact.roll_brief(total) == "Leadership 8: failed"


def test_a_long_line_keeps_the_casualties_and_cuts_the_rolls() -> None:
    rolls = tuple(each(f"to hit: Unit number {n} (CC4+)", (4, 5, 1), 4) for n in range(12))
    step = Step("Close combat and firefight attacks", rolls, (event("casualty", unit="Ork Boyz", models=2),))
    line = compact.step_line(step)
    assert len(line) <= compact.LINE
    assert line.endswith("…: 2 Ork Boyz removed")


def test_40k_says_a_strike_in_hits_wounds_saves_and_slain() -> None:
    # 2 Marines, 1 attack each (charged: +1): 4 to hit, 3 to wound, 2 saves; the Ork (A0) holds on 2D6.
    report = run(f"2x Marine: {MARINE}", "1x Ork: WS4 S4 T4 W3 I4 A0 Ld8 Sv6+",
                 [6, 5, 4, 1, 6, 6, 2, 1, 2, 2, 2], charge_distance=2)  # fmt: skip
    game = get_game("40k")
    strike = next(step for step in report.steps if "→" in step.title)
    assert game.step_line(strike) == f"{strike.title}: 3 hits, 2 wounds, 0 saved: 2 unsaved wounds"


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_every_games_lines_are_short_and_hold_no_policy(game: Game) -> None:
    from bot.data import catalogue

    bound = catalogue().game(game.id)
    for seed in range(5):
        report = resolve(bound, bound.example_attacker, bound.example_defender, seed=seed,
                         **dict(bound.example_options))  # fmt: skip
        policies = compact.policy_notes(report.steps)
        for step in report.steps:
            line = bound.step_line(step)
            assert len(line) <= compact.LINE and "\n" not in line  # "": the summary says it (not listed)
            # A step with a test (dice against a target) is always listed; a distance rolled is said by the summary.
            assert line or all(roll.target is None for roll in step.rolls), step
            assert not any(note[:40] in line for note in policies)
    assert bound.heading and len(f"{bound.heading}: some_fell_back") <= 40  # one line of a phone's title


def test_a_duel_round_is_its_scores_never_the_parry_reasoning() -> None:
    """The duel's round said in one line by its title (the combat scores); before, the default took the first
    note, the parry's reasoning ("... does not parry: re-rolling Ork Boy 1's 2 would…"), cut mid-phrase."""
    from bot.data import catalogue

    duel = catalogue().game("duel")
    report = resolve(duel, "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged",
                     "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife", seed=2027)  # fmt: skip
    rounds = [step for step in report.steps if step.title.startswith("Round ")]
    assert rounds and all(duel.step_line(step) == step.title for step in rounds)
    assert not any("parr" in duel.step_line(step) for step in report.steps)
