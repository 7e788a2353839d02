"""Hypothesis, for both formation games: any spec parses or raises a referee error; every valid resolution is a
consistent report that round-trips through JSON and replays from its seed."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules_core import RefereeError, SpecError, get_game, resolve
from rules_core.games.formation.engine import check_positions
from rules_core.report import Report
from tests.rules_core.checks import check_rolls

GAMES = ("epic", "reikhammer")
VOCABULARY = [
    "10x", "1x", "0x", "Tactical", "Ork Boyz", ":", ";", "|",
    "CC4+", "CC4", "FF3+", "FF3", "FF-", "CC-", "Sv4+", "Sv5", "Sv-", "Sv7+", "CC0",
    "INF", "LV", "AV", "WE", "inf", "DC=3", "DC3", "dc=0",
    "contact=2", "ff=1", "contact=99", "extra-attacks=1", "cover=4+", "cover=4",
    "macro-weapon", "reinforced-armour", "invulnerable", "inspiring",
    "@roster", "=", "x", " ", "\n", "é", "WS4",
]  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(st.sampled_from(VOCABULARY), max_size=40).map(" ".join))
def test_token_soup_parses_or_raises_a_referee_error(game: str, text: str) -> None:
    chosen = get_game(game)
    try:
        formation = chosen.parse_side(text)
    except RefereeError as error:
        message = error.one_line()
        assert message
        assert "\n" not in message
        return
    assert chosen.parse_side(chosen.format_side(formation)) == formation


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=300))
def test_arbitrary_text_parses_or_raises_a_referee_error(game: str, text: str) -> None:
    with contextlib.suppress(RefereeError):
        get_game(game).parse_side(text)


def value(draw: st.DrawFn, game: str) -> str:
    if game == "epic":
        return draw(st.sampled_from(["2+", "3+", "4+", "5+", "6+"]))
    return draw(st.sampled_from(["1", "2", "3", "4", "5", "6"]))


@st.composite
def groups(draw: st.DrawFn, game: str, *, supporting: bool = False) -> str:
    count = draw(st.integers(1, 8))
    name = f"G{draw(st.integers(1, 99))}"
    if supporting:
        words = [f"FF{value(draw, game)}", f"ff={draw(st.integers(0, count))}"]
        if draw(st.booleans()):
            words.append(f"extra-attacks={draw(st.integers(1, 2))}")
        return f"{count}x {name}: " + " ".join(words)
    unit_type = draw(st.sampled_from(["INF", "INF", "LV", "AV", "WE"]))
    ff = draw(st.sampled_from(["-", value(draw, game)]))
    save = draw(st.sampled_from(["Sv-", "Sv3+", "Sv4+", "Sv5+", "Sv6+"]))
    words = [f"CC{value(draw, game)}", f"FF{ff}", save, unit_type]
    if unit_type == "WE":
        words.append(f"DC={draw(st.integers(1, 6))}")
    contact = draw(st.integers(0, count))
    words += [f"contact={contact}", f"ff={draw(st.integers(0, count - contact))}"]
    specials = ["macro-weapon", "reinforced-armour", "invulnerable"] + (["inspiring"] if game == "epic" else [])
    words += sorted(draw(st.sets(st.sampled_from(specials), max_size=2)))
    if draw(st.booleans()):
        words.append(f"cover={draw(st.integers(3, 6))}+")
    if draw(st.booleans()):
        words.append(f"extra-attacks={draw(st.integers(1, 2))}")
    return f"{count}x {name}: " + " ".join(words)


@st.composite
def scenario(draw: st.DrawFn, game: str) -> tuple[str, str, dict[str, object]]:
    attacker = " ; ".join(draw(st.lists(groups(game), min_size=1, max_size=3)))
    defender = " ; ".join(draw(st.lists(groups(game), min_size=1, max_size=3)))
    key = "blast_markers" if game == "epic" else "shock"
    options: dict[str, object] = {
        f"attacker_{key}": draw(st.integers(0, 4)),
        f"defender_{key}": draw(st.integers(0, 4)),
        "attacker_broken": draw(st.booleans()),
        "defender_broken": draw(st.booleans()),
        "result_dice": draw(st.sampled_from(["highest", "sum"])),
        "max_rounds": draw(st.integers(1, 5)),
    }
    for side in ("attacker", "defender"):
        if draw(st.booleans()):
            options[f"{side}_support"] = " | ".join(
                draw(st.lists(groups(game, supporting=True), min_size=1, max_size=2))
            )
    if game == "reikhammer":
        options["double_means"] = draw(st.sampled_from(["at_least", "more_than"]))
        options["save_direction"] = draw(st.sampled_from(["over", "under"]))
    return attacker, defender, options


def check_consistent(game: str, report: Report, attacker: str, defender: str) -> None:
    result = report.result
    key = "blast_markers" if game == "epic" else "shock"
    chosen = get_game(game)
    for side, text in ((result.attacker, attacker), (result.defender, defender)):
        units = sum(group.count for group in chosen.parse_side(text).groups)
        assert side.lost >= 0
        assert side.remaining >= 0
        assert side.lost + side.remaining == units
        assert side.extra[key] >= 0
        if side.extra["withdraws"]:
            assert side.extra["broken"]
            assert sum(int(entry.split("x")[0]) for entry in side.extra["withdrawing"]) == side.remaining
    if result.winner == "none":
        assert result.outcome == "no_assault"
        assert result.attacker.lost == result.defender.lost == 0
    elif result.winner == "draw":
        assert result.outcome in ("tied", "both_destroyed")
        if result.outcome == "both_destroyed":
            assert result.attacker.remaining == result.defender.remaining == 0
        assert not result.attacker.extra["withdraws"]
        assert not result.defender.extra["withdraws"]
    else:
        winner = result.attacker if result.winner == "attacker" else result.defender
        loser = result.defender if result.winner == "attacker" else result.attacker
        # The one winner with no unit left: Reikhammer's stalled attack with both formations wiped out.
        assert winner.remaining > 0 or result.outcome == "both_destroyed"
        assert not winner.extra["withdraws"]
        assert loser.extra["broken"]
        assert result.outcome in ("broken", "destroyed", "both_destroyed")
        assert (loser.remaining == 0) == (result.outcome in ("destroyed", "both_destroyed"))
        assert loser.extra["withdraws"] == (result.outcome == "broken")
    check_rolls(report)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**53 - 1))
def test_every_valid_resolution_is_consistent_and_round_trips(game: str, data: st.DataObject, seed: int) -> None:
    attacker, defender, options = data.draw(scenario(game))
    chosen = get_game(game)
    try:  # positions that cannot both be true are refused (tested in test_formation_rulings.py)
        check_positions(chosen.rules, chosen.parse_side(attacker), chosen.parse_side(defender))  # type: ignore[attr-defined]
    except SpecError:
        assume(False)
    try:
        report = resolve(game, attacker, defender, seed=seed, **options)
    except RefereeError as error:
        raise AssertionError(f"valid input refused: {error}") from error
    check_consistent(game, report, attacker, defender)
    assert Report.from_dict(report.to_dict()) == report
    assert Report.from_json(report.to_json()) == report
    replay = resolve(game, report.inputs.attacker, report.inputs.defender, seed=seed, **dict(report.inputs.options))
    assert replay.to_json() == report.to_json()
