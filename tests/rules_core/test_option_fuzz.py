"""Hypothesis over the Python API of every game: options of every declared type given values of every type and size
(numbers huge, negative, NaN and infinite, bools, text long and short, bytes, lists, objects), unknown options,
odd sides and odd seeds. Whatever comes in, the referee answers with a report or one of the project's errors
(:class:`RefereeError`), never another exception."""

from __future__ import annotations

import contextlib
import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import RefereeError, all_games, resolve
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import Game
from rules_core.spec import MAX_SPEC_CHARS
from tests.rules_core.helpers_duel import GAME as DUEL

# Every registered game, the duel bound to its shipped weapon table (its examples name the table's weapons).
GAMES = {game.id: (DUEL if game.id == DUEL.id else game) for game in all_games()}

NUMBER_TEXTS = ["1e400", "-1e400", "nan", "inf", "-inf", "4", " 4.5 ", "-0", "0x10", "1_000", "½", "", " ", "٣"]

ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**5000), max_value=10**5000),
    st.sampled_from([10**400, -(10**400), 2**53, 2**63, -(2**63), 10**5000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.complex_numbers(),
    st.sampled_from(NUMBER_TEXTS),
    st.text(max_size=30),
    st.integers(min_value=0, max_value=3 * MAX_SPEC_CHARS).map(lambda n: "x" * n),
    st.binary(max_size=10),
    st.lists(st.integers(), max_size=3),
    st.tuples(st.text(max_size=3)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(object),
    st.just(Decimal("1E+400")),
    st.just(math.pi),
)


def values_for(spec: OptionSpec, game: Game) -> st.SearchStrategy[Any]:
    """Values near what the option takes (its choices, its range and just outside it), and anything at all."""
    near: list[st.SearchStrategy[Any]] = [st.just(spec.default)]
    if spec.type is OptionType.CHOICE:
        near.append(st.sampled_from(spec.choices).flatmap(lambda c: st.sampled_from([c, c.upper(), c.replace("_", "-"),
                                                                                       f" {c} "])))  # fmt: skip
    if spec.type in {OptionType.INT, OptionType.FLOAT}:
        low = -10.0 if spec.minimum is None else spec.minimum - 2
        high = 10.0 if spec.maximum is None else spec.maximum + 2
        near += [st.integers(int(low), int(high)), st.floats(low, high), st.integers(int(low), int(high)).map(str)]
    if spec.type is OptionType.BOOL:
        near.append(st.sampled_from(["true", "FALSE", "on", "off", "yes", "0", "1", "maybe", 0, 1]))
    if spec.type is OptionType.TEXT:
        near.append(st.sampled_from([game.example_attacker, game.example_defender, "@roster", "x: y", "|", ";"]))
    return st.one_of(*near, ANY_VALUE)


@st.composite
def options_of(draw: st.DrawFn, game: Game) -> dict[str, Any]:
    chosen = draw(st.lists(st.sampled_from(game.options), unique_by=lambda spec: spec.name, max_size=5))
    options = {spec.name: draw(values_for(spec, game)) for spec in chosen}
    if draw(st.integers(0, 9)) == 0:
        options[draw(st.sampled_from(["seed_value", "charge-distance", "x", "round_"]))] = draw(ANY_VALUE)
    return options


def answers(game: Game, attacker: object, defender: object, **kwargs: Any) -> None:
    """A report or a RefereeError: any other exception fails the test."""
    with contextlib.suppress(RefereeError):
        resolve(game, attacker, defender, **kwargs)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_options_give_a_report_or_a_project_error(game_id: str, data: st.DataObject) -> None:
    game = GAMES[game_id]
    options = data.draw(options_of(game), label="options")
    answers(game, game.example_attacker, game.example_defender, seed=1, **options)


SIDE_WORDS = ["10x", "1x", ":", ";", "|", "@", "=", "x", " ", "\n", "\x00", "é", "×", "(20)", "WS4", "Sv3+", "INF",
              "CC4+", "FF4+", "regular", "veteran", "nco", "contact=4", "A1", "-", "+", "10" * 40]  # fmt: skip

ODD_SIDE = st.one_of(
    ANY_VALUE,
    st.lists(st.sampled_from(SIDE_WORDS), max_size=30).map(" ".join),
    st.lists(st.sampled_from(SIDE_WORDS), max_size=30).map("".join),
    st.integers(min_value=0, max_value=3 * MAX_SPEC_CHARS).map(lambda n: "a" + " " * n + "b: WS4"),
    st.integers(min_value=0, max_value=300).map(lambda n: f"{n}x A: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"),
)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacker=ODD_SIDE, defender=ODD_SIDE, seed=st.one_of(st.none(), ANY_VALUE), use_attacker=st.booleans())
def test_odd_sides_and_seeds_give_a_report_or_a_project_error(
    game_id: str, attacker: object, defender: object, seed: object, use_attacker: bool
) -> None:
    game = GAMES[game_id]
    answers(game, game.example_attacker if use_attacker else attacker, defender, seed=seed)
    with contextlib.suppress(RefereeError):
        game.parse_side(attacker)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(game=st.one_of(ANY_VALUE, st.sampled_from(sorted(GAMES))), rng=st.one_of(st.none(), ANY_VALUE))
def test_any_game_and_dice_source_give_a_report_or_a_project_error(game: object, rng: object) -> None:
    with contextlib.suppress(RefereeError):
        resolve(game, "A: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "B: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", rng=rng)  # type: ignore[arg-type]
