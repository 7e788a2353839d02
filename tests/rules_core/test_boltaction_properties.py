"""Hypothesis: any unit spec parses or raises a referee error; every close quarters ends as the rules say."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import RefereeError, get_game, resolve
from rules_core.report import Report, SideName
from tests.rules_core.checks import check_rolls
from tests.rules_core.helpers_boltaction import events

GAME = get_game("boltaction")

VOCABULARY = [
    "10x", "1x", "0x", "31x", "Infantry", "Grenadiers", ":", ";", "|", "regular", "veteran", "inexperienced",
    "tough-fighters", "fanatics", "nco", "officer", "smg=2", "smg=11", "assault-rifle=1", "pistol=1", "pins=3",
    "pins=-1", "vehicle", "WS4", "=", " ", "\n", "é", "@roster",
]  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(VOCABULARY), max_size=30).map(" ".join))
def test_token_soup_parses_or_raises_a_referee_error(text: str) -> None:
    try:
        unit = GAME.parse_side(text)
    except RefereeError as error:
        message = error.one_line()
        assert message
        assert "\n" not in message
        return
    assert GAME.parse_side(GAME.format_side(unit)) == unit


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_parses_or_raises_a_referee_error(text: str) -> None:
    with contextlib.suppress(RefereeError):
        GAME.parse_side(text)


@st.composite
def units(draw: st.DrawFn, name: str) -> str:
    count = draw(st.integers(1, 15))
    words = [draw(st.sampled_from(["inexperienced", "regular", "veteran"]))]
    words += draw(st.lists(st.sampled_from(["tough-fighters", "fanatics", "nco", "officer"]), unique=True))
    if count < 2 and "nco" in words and "officer" in words:
        words.remove("officer")
    smg = draw(st.integers(0, count))
    if smg:
        words.append(f"smg={smg}")
    words.append(f"pins={draw(st.integers(0, 4))}")
    return f"{count}x {name}: " + " ".join(words)


@st.composite
def assaults(draw: st.DrawFn) -> tuple[str, str, int, dict[str, object]]:
    options: dict[str, object] = {
        "distance": draw(st.one_of(st.none(), st.floats(0, 15).map(lambda x: round(x, 1)))),
        "rough_ground": draw(st.booleans()),
        "defended_obstacle": draw(st.booleans()),  # never with rough_ground (decision 9): see below
        "target_has_acted": draw(st.booleans()),
        "ambush": draw(st.booleans()),
        "reaction_shots": draw(st.one_of(st.none(), st.integers(0, 20))),
        "reaction_modifiers": draw(st.integers(-3, 1)),
        "out_of_arc": draw(st.booleans()),
        "morale_check": draw(st.booleans()),
    }
    options["defended_obstacle"] = bool(options["defended_obstacle"]) and not options["rough_ground"]
    return draw(units("Attackers")), draw(units("Defenders")), draw(st.integers(0, 2**40)), options


def check_report(report: Report) -> None:
    check_rolls(report)
    assert Report.from_json(report.to_json()) == report
    result = report.result
    a, d = result.attacker, result.defender
    for side, other in ((a, d), (d, a)):
        assert side.lost + side.remaining >= 1
        # Every man lost fell to the enemy's damage or surrendered with his destroyed unit.
        assert side.lost == other.extra["casualties_caused"] + side.extra["surrendered"]
        assert side.extra["destroyed"] == (side.remaining == 0 and side.lost > 0)
    outcome = result.outcome
    if outcome == "failed_to_contact":
        assert result.winner == "none"
        assert a.lost == d.lost == 0
    elif outcome in ("shot_down", "failed_morale"):
        assert result.winner == "defender"
        assert a.remaining == 0
        assert d.lost == 0
    elif outcome == "destroyed":
        winner, loser = (a, d) if result.winner == "attacker" else (d, a)
        assert loser.remaining == 0 and winner.remaining > 0
        assert 1 <= winner.extra["regroup_inches"] <= 6
    elif outcome == "both_destroyed":
        assert result.winner == "draw" and a.remaining == d.remaining == 0
    else:
        raise AssertionError(f"unexpected outcome {outcome}")  # 'undecided' needs 200 drawn rounds
    played = events(report, "round")
    if outcome == "both_destroyed":
        played = played[:-1]  # the last round wiped both out, whatever each caused
    for round_event in played:
        caused = round_event.get("attacker_caused"), round_event.get("defender_caused")
        if round_event.get("winner") == "none":
            assert caused[0] == caused[1]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(assaults())
def test_every_close_quarters_ends_with_a_side_destroyed_unless_the_rules_say_otherwise(
    case: tuple[str, str, int, dict[str, object]],
) -> None:
    attacker, defender, seed, options = case
    report = resolve(GAME, attacker, defender, seed=seed, **options)
    check_report(report)
    replay = resolve(GAME, report.inputs.attacker, report.inputs.defender, seed=seed, **options)
    assert replay.to_json() == report.to_json()
    assert report.result.side(SideName.ATTACKER) is report.result.attacker
