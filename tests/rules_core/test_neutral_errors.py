"""rules_core's errors name no front end: no `referee ...` command, no `/command`, no `--flag` in any text a game's
bad input, an option's validation, the odds or the dice raise; options in examples are structured (name, value)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from bot.data import catalogue
from rules_core import RefereeError, all_games
from rules_core.dice import SeededDice
from rules_core.errors import Example, OptionName
from rules_core.errors import RefereeError as Base
from rules_core.odds import odds
from rules_core.options import OptionType, validate_options
from rules_core.registry import Game

COMMAND = re.compile(r"\breferee (help|history|roster|assault|replay|verify|void|league|odds|db|games|samples)\b")
SLASH = re.compile(r"(^|[\s'`(\"])/[a-z]")
FLAG = re.compile(r"(^|[\s'`(\"])--[a-z]")


def front_end_words(text: str) -> list[str]:
    return [pattern.pattern for pattern in (COMMAND, SLASH, FLAG) if pattern.search(text)]


def bad_values(kind: OptionType) -> list[object]:
    if kind is OptionType.BOOL:
        return ["maybe"]
    if kind is OptionType.CHOICE:
        return ["no-such-choice"]
    if kind is OptionType.TEXT:
        return ["  "]
    return ["many", -1000, 10**6, 2.5 if kind is OptionType.INT else "nan"]


def errors_of(game: Game) -> Iterator[RefereeError]:
    """Every error the game's bad input examples raise: each option's bad values, an unknown option, bad specs."""
    attempts: list[Callable[[], object]] = []
    for spec in game.options:
        for value in bad_values(spec.type):
            attempts.append(lambda spec=spec, value=value: validate_options(game.options, {spec.name: value}))
        attempts.append(lambda spec=spec: spec.convert(None))
    attempts.append(lambda: validate_options(game.options, {"no_such_option": 1}))
    for text in ("", "@my-roster", "A:", "10x", "3x Nobody: XX9 !!", game.example_attacker + " no-such-keyword",
                 "|".join([game.example_attacker] * 60), "A" * 5000):  # fmt: skip
        attempts.append(lambda text=text: game.parse_side(text))
    attempts.append(lambda: odds(game, game.example_attacker, game.example_defender, method="guess"))
    attempts.append(lambda: odds(game, game.example_attacker, game.example_defender, trials=0))
    for attempt in attempts:
        try:
            attempt()
        except RefereeError as error:
            yield error


@pytest.mark.parametrize("game", [catalogue().game(g) for g in all_games()], ids=lambda g: g.id)
def test_no_error_of_a_game_names_a_front_end_command_or_flag(game: Game) -> None:
    seen = 0
    for error in errors_of(game):
        seen += 1
        assert not front_end_words(str(error)), str(error)
        assert error.example is None or isinstance(error.example, str | Example)
        if isinstance(error.example, str):
            assert not front_end_words(error.example), error.example
    assert seen >= len(game.options)


@pytest.mark.parametrize("game", [catalogue().game(g) for g in all_games()], ids=lambda g: g.id)
def test_option_errors_name_the_option_and_show_options_structurally(game: Game) -> None:
    for spec in game.options:
        with pytest.raises(RefereeError) as refused:
            validate_options(game.options, {spec.name: bad_values(spec.type)[0]})
        assert OptionName(spec.name) in refused.value.parts
        assert isinstance(refused.value.example, Example) and refused.value.example.settings
        assert {s.name for s in refused.value.example.settings} <= {o.name for o in game.options}


def test_the_dice_seed_and_the_odds_examples_are_options() -> None:
    with pytest.raises(Base) as refused:
        SeededDice(-1)
    assert isinstance(refused.value.example, Example)
    assert [(s.name, s.value) for s in refused.value.example.settings] == [("seed", 12345)]
    assert not front_end_words(str(refused.value))
