"""Hypothesis: any duel spec parses or raises a referee error; every duel resolves to a consistent report."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import RefereeError, resolve
from rules_core.games.duel import DuelGame
from rules_core.games.duel.spec import FLAGS
from rules_core.report import Report, SideName
from tests.rules_core.checks import check_rolls
from tests.rules_core.helpers_duel import ARMOURY, GAME, events, rounds

VOCABULARY = [
    "3x",
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
    "A0",
    "Sv3+",
    "Sv-",
    "Ld8",
    "M4",
    "WS11",
    "Sv7+",
    "parry=auto",
    "parry=always",
    "parry=maybe",
    "weapon-choice=chainsword",
    "weapon=claw/S+1/dmg=D3/sv=-1/parry/cc",
    "weapon=claw/S11",
    "weapon=x/dmg=D4",
    "@roster",
    "=",
    " ",
    "\n",
    "é",
    *FLAGS,
    *ARMOURY.names,
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(VOCABULARY), max_size=40).map(" ".join))
def test_token_soup_parses_or_raises_a_referee_error(text: str) -> None:
    try:
        side = GAME.parse_side(text)
    except RefereeError as error:
        message = error.one_line()
        assert message
        assert "\n" not in message
        return
    assert GAME.parse_side(GAME.format_side(side)) == side


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_parses_or_raises_a_referee_error(text: str) -> None:
    with contextlib.suppress(RefereeError):
        GAME.parse_side(text)


INLINE = st.builds(
    lambda name, strength, damage, modifier, parry, cc: "/".join(
        part for part in (f"weapon={name}", strength, f"dmg={damage}", modifier, parry, cc) if part
    ),
    st.sampled_from(["claw", "axe", "blade"]),
    st.sampled_from(["S=user", "S+1", "S-1", "S3", "S6", "S10", ""]),
    st.sampled_from(["1", "2", "D3", "D6", "D3+1"]),
    st.sampled_from(["sv=-1", "sv=0", "sv=-3", ""]),
    st.sampled_from(["parry", ""]),
    st.sampled_from(["cc", "cc", ""]),
)


@st.composite
def models(draw: st.DrawFn, name: str, *, count: int = 1, banned: frozenset[str] = frozenset()) -> str:
    stat = st.integers(1, 10)
    words = [
        f"WS{draw(stat)}",
        f"S{draw(stat)}",
        f"T{draw(st.integers(1, 8))}",
        f"W{draw(st.integers(1, 4))}",
        f"I{draw(stat)}",
        f"A{draw(st.integers(1, 4))}",
        draw(st.sampled_from(["Sv-", "Sv2+", "Sv3+", "Sv4+", "Sv5+", "Sv6+"])),
    ]
    weapons = draw(st.lists(st.one_of(st.sampled_from(ARMOURY.names), INLINE), max_size=3))
    flags = draw(st.lists(st.sampled_from(["charged", "high-ground", "encumbered", "breaking-off"]), unique=True))
    flags = [flag for flag in flags if flag not in banned]  # the lone model's charge or high ground is its own
    if "charged" in flags and draw(st.booleans()):
        flags.append("obstacle")
    words += weapons + flags
    words.append(f"parry={draw(st.sampled_from(['auto', 'always', 'never']))}")
    return f"{count}x {name}: " + " ".join(words)


@st.composite
def duels(draw: st.DrawFn) -> tuple[str, str, int, dict[str, object]]:
    lone = draw(models("Lone"))
    banned = frozenset(flag for flag in ("charged", "high-ground") if f" {flag}" in lone)
    foes = " | ".join(draw(models(f"Foe {n}", count=draw(st.integers(1, 2)), banned=banned))
                      for n in range(draw(st.integers(1, 3))))  # fmt: skip
    attacker, defender = (lone, foes) if draw(st.booleans()) else (foes, lone)
    options: dict[str, object] = {"strength_save_table": draw(st.sampled_from(["whfb", "none"]))}
    return attacker, defender, draw(st.integers(0, 2**40)), options


def check_report(report: Report) -> None:
    check_rolls(report)
    assert Report.from_json(report.to_json()) == report
    result = report.result
    for name in SideName:
        side, other = result.side(name), result.side(name.other)
        models = side.extra["models"]
        assert side.lost == sum(model["wounds_left"] == 0 for model in models)
        assert side.lost + side.remaining == len(models)
        assert other.extra["wounds_inflicted"] == sum(m["wounds"] - m["wounds_left"] for m in models)
        assert side.extra["broken"] == any(m["status"] == "broke_off" for m in models)
    a, d = result.attacker.extra["wounds_inflicted"], result.defender.extra["wounds_inflicted"]
    assert result.winner == ("attacker" if a > d else "defender" if d > a else "draw")
    statuses = [m["status"] for side in (result.attacker, result.defender) for m in side.extra["models"]]
    expected = (
        "killed"
        if "slain" in statuses
        else "broke_off"
        if "broke_off" in statuses
        else "wounded"
        if a or d
        else "stalemate"
    )
    assert result.outcome == expected
    for number, round_event in enumerate(rounds(report), start=1):
        assert round_event.get("round") == number
        a_score, d_score = round_event.get("attacker_score"), round_event.get("defender_score")
        if round_event.get("decided_by") == "score":
            assert round_event.get("hits") == abs(a_score - d_score)
        else:
            assert a_score == d_score
            assert round_event.get("hits") == (1 if round_event.get("decided_by") == "initiative" else 0)
    assert len(events(report, "broke_off")) == statuses.count("broke_off")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(duels())
def test_every_duel_is_a_consistent_replayable_report(case: tuple[str, str, int, dict[str, object]]) -> None:
    attacker, defender, seed, options = case
    report = resolve(GAME, attacker, defender, seed=seed, **options)
    check_report(report)
    # The stored (canonical) inputs replay to the same bytes, with no weapon table at all.
    replay = resolve(DuelGame(), report.inputs.attacker, report.inputs.defender, seed=seed, **options)
    assert replay.to_json() == report.to_json()
