"""A roll's dice as every renderer shows them: grouped into successes and failures, each highest first, marked with
✔ and ✘ (which read in plain text and need no colour, unlike the bold that once alone marked a success)."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from bot.render.markdown import MarkdownLines
from bot.render.terminal import TerminalLines
from bot.render.walk import FAILURE, LISTED, SUCCESS, dice_text, faces, grouped, roll_text
from rules_core.report import Combine, Op, Reroll, Roll, Target


def each(dice: tuple[int, ...], need: int, rerolls: tuple[Reroll, ...] = ()) -> Roll:
    success = tuple(face >= need for face in dice)
    return Roll("to hit", dice, Target(Op.AT_LEAST, need), success, sum(success), rerolls)


def test_successes_then_failures_each_highest_first() -> None:
    assert dice_text(faces(each((1, 6, 5, 2, 3, 3, 4, 5, 1), 4))) == "✔ 6 5 5 4 · ✘ 3 3 2 1 1"


def test_an_empty_group_is_left_out() -> None:
    assert dice_text(faces(each((3, 2, 1), 6))) == "✘ 3 2 1"
    assert dice_text(faces(each((6, 6), 2))) == "✔ 6 6"


def test_a_roll_under_marks_the_low_dice_as_successes() -> None:
    dice = (1, 5, 2, 6)
    success = tuple(face <= 3 for face in dice)
    roll = Roll("Initiative test", dice, Target(Op.AT_MOST, 3), success, sum(success))
    assert dice_text(faces(roll)) == "✔ 2 1 · ✘ 6 5"


def test_a_re_rolled_die_shows_what_it_was() -> None:
    roll = each((4, 2, 6), 4, rerolls=(Reroll(1, 1, 2),))
    assert dice_text(faces(roll)) == "✔ 6 4 · ✘ 1→2"


def test_dice_read_for_their_total_keep_their_order_and_have_no_mark() -> None:
    roll = Roll("Leadership", (5, 2), Target(Op.AT_MOST, 8), (True,), 1, combine=Combine.SUM)
    assert dice_text(faces(roll)) == "5 2"
    unchecked = Roll("fall back", (3, 1, 6), None, (), 0, combine=Combine.SUM)
    assert dice_text(faces(unchecked)) == "3 1 6"


def test_a_long_group_is_counted_by_face() -> None:
    dice = tuple([6] * 10 + [5] * 10 + [4] * 10 + [1] * 3)
    text = dice_text(faces(each(dice, 4)))
    assert len(grouped(faces(each(dice, 4)))[0].faces) > LISTED
    assert text == "✔ 6 (×10) 5 (×10) 4 (×10) · ✘ 1 1 1"


def test_markdown_and_terminal_mark_without_bold_alone_or_colour() -> None:
    roll = each((1, 6, 5, 2), 4)
    need, outcome = roll_text(roll)
    markdown = MarkdownLines().roll(roll, need, outcome, faces(roll))
    assert markdown == "*to hit* (4+): ✔ 6 5 · ✘ 2 1 → 2 successes"
    console = Console(file=StringIO(), width=200, color_system=None)  # as piped, or on a screen without colour
    console.print(TerminalLines().roll(roll, need, outcome, faces(roll)))
    assert f"{SUCCESS} 6 5 · {FAILURE} 2 1" in console.file.getvalue()  # type: ignore[attr-defined]
