"""Hypothesis: any spec parses or raises a spec error; every valid resolution is a consistent report."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import RefereeError, resolve
from rules_core.games.wh40k.spec import KEYWORDS, format_side, parse_side
from rules_core.report import Report
from tests.rules_core.checks import check_rolls

VOCABULARY = [
    "10x",
    "1x",
    "0x",
    "Marine",
    "Ork Boy",
    ":",
    ";",
    "|",
    "WS4",
    "S4",
    "T4",
    "W1",
    "W3",
    "I4",
    "A1",
    "Ld8",
    "Sv3+",
    "Sv-",
    "Inv4+",
    "WS11",
    "Sv7+",
    "engaged=3",
    "supporting=2",
    "vs=2",
    "vs=0",
    "poisoned=2+",
    "strike-with=none",
    "tie-t=4",
    "tie-save=4+",
    "grenades=frag",
    "vehicle",
    "@roster",
    "=",
    "x",
    " ",
    "  ",
    "\n",
    "é",
    "power-fist",
    *KEYWORDS,
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(VOCABULARY), max_size=40).map(" ".join))
def test_token_soup_parses_or_raises_a_referee_error(text: str) -> None:
    try:
        side = parse_side(text)
    except RefereeError as error:
        message = error.one_line()
        assert message
        assert "\n" not in message
        return
    assert parse_side(format_side(side)) == side


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_parses_or_raises_a_referee_error(text: str) -> None:
    with contextlib.suppress(RefereeError):
        parse_side(text)


@st.composite
def groups(draw: st.DrawFn, *, independent: bool = False) -> str:
    count = 1 if independent else draw(st.integers(1, 12))
    stats = " ".join(
        f"{key}{draw(st.integers(low, high))}"
        for key, low, high in (
            ("WS", 1, 10),
            ("S", 1, 10),
            ("T", 1, 10),
            ("W", 1, 4),
            ("I", 1, 10),
            ("A", 0, 4),
            ("Ld", 2, 10),
        )
    )
    save = draw(st.sampled_from(["Sv-", "Sv2+", "Sv3+", "Sv4+", "Sv5+", "Sv6+"]))
    inv = draw(st.sampled_from(["", "", " Inv4+", " Inv5+"]))
    weapons = draw(
        st.sets(
            st.sampled_from(
                [
                    "power-weapon",
                    "power-fist",
                    "lightning-claws",
                    "force-weapon",
                    "heavy-ccw",
                    "rending",
                    "poisoned",
                    "monstrous",
                    "two-weapons",
                    "frag-grenades",
                    "plasma-grenades",
                    "bike",
                    "dies-last",
                ]
            ),
            max_size=3,
        )
    )
    engaged = draw(st.integers(1, count))
    supporting = draw(st.integers(0, count - engaged))
    words = [
        f"{count}x G{draw(st.integers(1, 99))}: {stats} {save}{inv}",
        *sorted(weapons),
        f"engaged={engaged}",
        f"supporting={supporting}",
    ]
    if independent:
        words.append("independent-character")
    return " ".join(words)


@st.composite
def sides(draw: st.DrawFn) -> str:
    units = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()) and draw(st.booleans()):
            units.append(draw(groups(independent=True)))
        else:
            units.append(" ; ".join(draw(st.lists(groups(), min_size=1, max_size=2))))
    return " | ".join(units)


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "charge_distance": st.sampled_from([0.5, 3, 6, 6.5]),
        "defender_in_cover": st.booleans(),
        "morale_modifier": st.sampled_from(["none", "per_wound"]),
        "double_one_passes": st.booleans(),
        "perils": st.booleans(),
    },
)


def check_consistent(report: Report, attacker: str, defender: str) -> None:
    result = report.result
    a_side, d_side = parse_side(attacker), parse_side(defender)
    for side, parsed in ((result.attacker, a_side), (result.defender, d_side)):
        assert side.lost >= 0 and side.remaining >= 0
        assert side.lost + side.remaining == parsed.models
    a_wounds = result.attacker.extra["wounds_inflicted"]
    d_wounds = result.defender.extra["wounds_inflicted"]
    assert 0 <= a_wounds <= sum(g.count * g.profile.w for u in d_side.units for g in u.groups)
    assert 0 <= d_wounds <= sum(g.count * g.profile.w for u in a_side.units for g in u.groups)
    if result.winner == "none":
        assert result.outcome == "no_charge"
        assert result.attacker.lost == result.defender.lost == 0 == a_wounds == d_wounds
    elif result.winner == "draw":
        assert a_wounds == d_wounds or result.attacker.remaining == result.defender.remaining == 0
        assert not result.attacker.extra["morale"] and not result.defender.extra["morale"]
    else:
        winner = result.attacker if result.winner == "attacker" else result.defender
        loser = result.defender if result.winner == "attacker" else result.attacker
        mine, theirs = (a_wounds, d_wounds) if result.winner == "attacker" else (d_wounds, a_wounds)
        assert winner.remaining > 0
        assert mine > theirs or loser.remaining == 0 or result.outcome in ("destroyed", "fell_back")
        assert not winner.extra["morale"]
        if result.outcome == "destroyed":
            assert loser.remaining == 0
    for side in (result.attacker, result.defender):
        for entry in side.extra["morale"]:
            total = sum(entry["dice"])
            assert entry["passed"] == (total <= entry["target"]) or tuple(entry["dice"]) == (1, 1)
    check_rolls(report)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sides(), sides(), OPTIONS, st.integers(0, 2**53 - 1))
def test_every_valid_resolution_is_consistent_and_round_trips(
    attacker: str, defender: str, options: dict[str, object], seed: int
) -> None:
    try:
        report = resolve("40k", attacker, defender, seed=seed, **options)
    except RefereeError as error:
        # The only refusals valid specs can meet: a vs= beyond the enemy's units (not generated here).
        raise AssertionError(f"valid input refused: {error}") from error
    check_consistent(report, attacker, defender)
    assert Report.from_dict(report.to_dict()) == report
    assert Report.from_json(report.to_json()) == report
    replay = resolve("40k", report.inputs.attacker, report.inputs.defender, seed=seed, **dict(report.inputs.options))
    assert replay.to_json() == report.to_json()
