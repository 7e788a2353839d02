"""Dividing attacks between enemy units (MULTIPLE COMBATS, CHARACTERS IN ASSAULTS): a group's models split between
targets (vs=1:3,2:2), an independent character dividing its hits (vs=1,2, hits=), and the refusals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import IllegalDeclarationError, OptionError, SpecError, resolve
from rules_core.games.wh40k.spec import format_side, parse_side
from tests.rules_core.checks import check_rolls
from tests.rules_core.helpers40k import events, rolls, run, strike_titles

MARINES_SPLIT = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1:3,2:2"
BOYZ = "5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
NOB = "1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"
CAPTAIN = "1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character"


def test_a_group_divides_its_models_between_two_enemy_units() -> None:
    # Round 2. 3 Marines fight the Boyz and 2 the Nob (I4): 3 dead Boyz, the Nob's 2 wounds. The 2 Boyz left
    # miss; they fail morale and get away (fall back 2, sweep 2).
    report = run(
        MARINES_SPLIT,
        f"{BOYZ} | {NOB}",
        [6, 6, 6] + [6, 6, 6] + [1, 1, 1]  # 3 Marines -> Ork Boy
        + [6, 6] + [6, 6] + [1, 1]  # 2 Marines -> Nob: dead
        + [1, 1, 1, 1]  # 2 Boyz miss
        + [6, 6] + [1, 1] + [1, 1],  # Boyz fail Ld7, fall back 2, sweep 2: no
        round=2,
    )  # fmt: skip
    check_rolls(report)
    assert strike_titles(report)[:2] == ["Initiative 4: Marine ×3 → Ork Boy", "Initiative 4: Marine ×2 → Nob"]
    (marines, _, _) = events(report, "fighting")
    assert list(marines.get("targets")) == ["Ork Boy", "Nob"]  # type: ignore[arg-type]
    assert "Dividing its attacks: 3 Marine in base contact fight Ork Boy; 2 Marine in base contact fight Nob." in str(
        marines.get("note")
    )
    assert report.result.attacker.extra["wounds_inflicted"] == 5


def test_the_models_fighting_each_unit_are_counted_after_casualties() -> None:
    # The Banshees (I5) kill 2 Marines, both of the 3 fighting the Banshees (the owner's order: the group's models
    # in the order written). 1 Marine then strikes the Banshees and 2 the Ogryn.
    report = run(
        MARINES_SPLIT,
        "2x Banshee: WS4 S3 T3 W1 I5 A2 Ld8 Sv5+ | 1x Ogryn: WS3 S5 T5 W3 I2 A3 Ld6 Sv5+",
        [6, 6, 1, 1] + [6, 6] + [1, 1]  # Banshees: 2 Marines dead
        + [1] + [1, 1]  # 1 Marine -> Banshee, 2 -> Ogryn: all miss
        + [1, 1, 1]  # Ogryn misses
        + [1, 1],  # Marines hold
        round=2,
    )  # fmt: skip
    assert strike_titles(report)[1:3] == ["Initiative 4: Marine ×1 → Banshee", "Initiative 4: Marine ×2 → Ogryn"]
    (going_on,) = events(report, "continues")
    # The next round keeps who fights whom: 1 Marine at the Banshees, 2 at the Ogryn.
    survivors = str(going_on.get("attacker_survivors"))
    assert "vs=1:1,2:2" in survivors
    assert parse_side(survivors).units[0].groups[0].split == ((1, 1, 0), (2, 2, 0))


def test_supporting_models_divide_too() -> None:
    side = parse_side("10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ engaged=8 supporting=2 vs=1:6+2,2:2")
    assert side.units[0].groups[0].split == ((1, 6, 2), (2, 2, 0))


def test_an_independent_character_divides_its_hits_in_turn_by_default() -> None:
    # Round 2. The Captain (WS5 vs WS4: 3+) scores 3 hits, dealt Boyz, Nob, Boyz: 2 dead Boyz, 1 wound on the Nob.
    report = run(
        CAPTAIN + " vs=1,2",
        f"{BOYZ} | {NOB}",
        [6, 5, 4]  # to hit
        + [6, 6] + [1, 1]  # 2 hits on the Boyz: wound, no save
        + [6] + [1]  # 1 hit on the Nob
        + [1, 1, 1]  # Nob misses
        + [1] * 6  # 3 Boyz miss
        + [1, 1] + [1, 1],  # both hold
        round=2,
    )  # fmt: skip
    check_rolls(report)
    (divided,) = events(report, "divide_hits")
    assert divided.get("shares") == {"Ork Boy": 2, "Nob": 1}
    assert "default policy: one at a time in turn, in vs= order; hits= chooses" in str(divided.get("note"))
    assert strike_titles(report)[:3] == [
        "Initiative 5: Captain ×1 → Ork Boy, Nob",
        "Initiative 5: Captain ×1 → Ork Boy (2 of its 3 hits)",
        "Initiative 5: Captain ×1 → Nob (1 of its 3 hits)",
    ]
    assert report.result.attacker.extra["wounds_inflicted"] == 3


def test_hits_chooses_how_the_character_deals_them() -> None:
    # hits=2:3: up to 3 hits on the Nob first. 3 wounds on a W2 Nob: 2 count.
    report = run(
        CAPTAIN + " vs=1,2 hits=2:3",
        f"{BOYZ} | {NOB}",
        [6, 5, 4] + [6, 6, 6] + [1, 1, 1] + [1] * 10 + [1, 1],
        round=2,
    )
    (divided,) = events(report, "divide_hits")
    assert divided.get("shares") == {"Ork Boy": 0, "Nob": 3}
    assert report.result.attacker.extra["wounds_inflicted"] == 2


def test_the_character_rolls_against_the_hardest_weapon_skill_it_divides_between() -> None:
    # WS5 against the Boyz (WS4: 3+) and an Exarch (WS6: 4+): its hits are dealt after the roll, so the roll is 4+.
    report = run(
        CAPTAIN + " vs=1,2",
        f"{BOYZ} | 1x Exarch: WS6 S3 T3 W1 I6 A1 Ld9 Sv3+",
        [1]  # the Exarch (I6) misses the Captain
        + [3, 3, 1]  # 3s miss at 4+
        + [1] * 10,  # the Boyz miss: a draw
        round=2,
    )  # fmt: skip
    (to_hit,) = rolls(report, "to hit (WS5 vs WS6)")
    assert to_hit.target is not None and to_hit.target.value == 4
    (divided,) = events(report, "divide_hits")
    assert "against WS6, the hardest of the units it divides between" in str(divided.get("note"))


def test_enemy_models_in_contact_with_a_character_fight_it_and_the_rest_fight_on() -> None:
    # 10 Marines | the Captain against 10 Boyz, 8 at the Marines and 2 at the Captain: the Captain takes the
    # attacks of just those 2 (4 attacks), the Marines those of the other 8 (16).
    report = run(
        f"10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ | {CAPTAIN}",
        "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ vs=1:8,2:2",
        [1] * 3 + [1] * 10 + [1] * 16 + [1] * 4,  # everyone misses: a draw
        round=2,
    )
    by_target = {
        str(e.get("target")): e.get("attacks") for e in events(report, "strike") if e.get("side") == "defender"
    }
    assert by_target == {"Marine": 16, "Captain": 4}


def test_old_specs_keep_their_meaning_and_canonical_form() -> None:
    old = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ vs=2"
    assert format_side(parse_side(old)) == (
        "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ engaged=5 supporting=0 vs=2 ; "
        "1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ engaged=1 supporting=0"
    )
    for text in (
        MARINES_SPLIT,
        "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ tie-t=4 ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ vs=2:1",
        CAPTAIN + " vs=2,1 hits=1:2",
    ):
        canonical = format_side(parse_side(text))
        assert parse_side(canonical) == parse_side(text) and format_side(parse_side(canonical)) == canonical


@pytest.mark.parametrize(
    ("attacker", "defender", "error", "fragment"),
    [
        (
            "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1:3,2:3",
            f"{BOYZ} | {NOB}",
            SpecError,
            'divides 6 models in base contact and 0 within 2", but the group has engaged=5 and supporting=0',
        ),
        (
            "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ engaged=3 supporting=2 vs=1:3,2:2",
            f"{BOYZ} | {NOB}",
            SpecError,
            'divides 5 models in base contact and 0 within 2", but the group has engaged=3 and supporting=2',
        ),
        ("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1:3,3:2", f"{BOYZ} | {NOB}", OptionError, "fights enemy unit 3"),
        ("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1:3,1:2", f"{BOYZ} | {NOB}", SpecError, "names enemy unit 1 twice"),
        ("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1:three", f"{BOYZ} | {NOB}", SpecError, "enemy-unit:in-contact"),
        ("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1,2", f"{BOYZ} | {NOB}", SpecError, "only an independent"),
        (CAPTAIN + " vs=1:1", f"{BOYZ} | {NOB}", SpecError, "an independent character is one model"),
        (CAPTAIN + " vs=1,3", f"{BOYZ} | {NOB}", OptionError, "fights enemy unit 3, but the defender has only 2"),
        (CAPTAIN + " hits=1:2", f"{BOYZ} | {NOB}", SpecError, "hits= says how an independent character"),
        (CAPTAIN + " vs=1,2 hits=3:1", f"{BOYZ} | {NOB}", SpecError, "units it divides its hits between (1, 2)"),
        (
            f"10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ | {CAPTAIN} vs=1,2",
            f"10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ vs=1:8,2:2 | {NOB}",
            IllegalDeclarationError,
            "Captain divides its hits between Ork Boy, Nob, but no model of Nob in base contact fights it",
        ),
    ],
)
def test_impossible_divisions_are_refused_with_an_example(
    attacker: str, defender: str, error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error) as raised:
        resolve("40k", attacker, defender, seed=1, round=2)
    assert fragment in str(raised.value)
    assert "Example: " in str(raised.value)


def test_the_docs_worked_example() -> None:
    report = run(
        f"10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ | {CAPTAIN} vs=1,2",
        "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ vs=1:8,2:2 | 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ vs=2",
        [6, 5, 4] + [1, 1] + [1]  # the Captain: 3 hits, Boyz, Nob, Boyz; no wound
        + [1] * 10 + [1] * 3 + [1] * 16 + [1] * 4,  # Marines, Nob, 8 Boyz, 2 Boyz: all miss
        round=2,
    )  # fmt: skip
    (to_hit,) = rolls(report, "to hit (WS5 vs WS4)")
    assert to_hit.target is not None and to_hit.target.value == 3
    assert [r.purpose for r in report.steps[3].rolls] == ["to wound (S4 vs T4)"]
    assert strike_titles(report) == [
        "Initiative 5: Captain ×1 → Ork Boy, Nob",
        "Initiative 5: Captain ×1 → Ork Boy (2 of its 3 hits)",
        "Initiative 5: Captain ×1 → Nob (1 of its 3 hits)",
        "Initiative 4: Marine ×10 → Ork Boy",
        "Initiative 3: Nob ×1 → Captain",
        "Initiative 2: Ork Boy ×8 → Marine",
        "Initiative 2: Ork Boy ×2 → Captain",
    ]


@st.composite
def divided(draw: st.DrawFn) -> tuple[str, str]:
    """A side of 1-2 units whose groups divide their models between the 2-3 enemy units at random; models within 2"
    fight only a unit their unit's models in base contact fight (decision 24: the enemy units all fight unit 1)."""
    enemies = draw(st.integers(2, 3))
    units = []
    for position in range(draw(st.integers(1, 2))):
        groups = []
        touched: set[int] = set(range(1, enemies + 1)) if position == 0 else set()  # every enemy fights unit 1
        for number in range(draw(st.integers(1, 2))):
            count = draw(st.integers(1, 8))
            engaged = draw(st.integers(1 if number == 0 else 0, count))
            supporting = draw(st.integers(0, count - engaged))
            written = draw(st.booleans())
            shares: dict[int, list[int]] = {}
            for _ in range(engaged):
                shares.setdefault(draw(st.integers(1, enemies)), [0, 0])[0] += 1
            touched |= set(shares) if written else ({1} if engaged else set())
            if not written and 1 not in touched:
                supporting = 0  # they would fight unit 1, which no model of their unit touches
            for _ in range(supporting):
                shares.setdefault(draw(st.sampled_from(sorted(touched))), [0, 0])[1] += 1
            split = ",".join(f"{k}:{e}" + (f"+{s}" if s else "") for k, (e, s) in shares.items())
            weapon = draw(st.sampled_from(["", " power-fist", " rending", " force-weapon"]))
            groups.append(
                f"{count}x G{draw(st.integers(1, 9))}: WS{draw(st.integers(2, 6))} S4 T4 W{draw(st.integers(1, 3))} "
                f"I{draw(st.integers(1, 6))} A{draw(st.integers(0, 3))} Ld8 Sv4+{weapon} engaged={engaged} "
                f"supporting={supporting}" + (f" vs={split}" if split and written else "")
            )
        units.append(" ; ".join(groups))
    defender = " | ".join(
        f"{draw(st.integers(1, 6))}x E{n}: WS4 S3 T4 W{draw(st.integers(1, 2))} I{draw(st.integers(1, 6))} A2 Ld7 Sv5+"
        for n in range(enemies)
    )
    return " | ".join(units), defender


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(divided(), st.integers(0, 2**32), st.booleans())
def test_divided_fights_are_consistent_round_trip_and_continue(sides: tuple[str, str], seed: int, first: bool) -> None:
    attacker, defender = sides
    report = resolve("40k", attacker, defender, seed=seed, **({"charge_distance": 3} if first else {"round": 2}))
    check_rolls(report)
    replay = resolve("40k", report.inputs.attacker, report.inputs.defender, seed=seed, **dict(report.inputs.options))
    assert replay.to_json() == report.to_json()
    for going_on in events(report, "continues"):
        survivors = [str(going_on.get(f"{side}_survivors")) for side in ("attacker", "defender")]
        assert [format_side(parse_side(text)) for text in survivors] == survivors
        resolve("40k", *survivors, seed=seed, round=2)


def test_a_psyker_dividing_its_hits_takes_one_psychic_test() -> None:
    # A Librarian divides 2 hits: 1 on the Boyz, 1 on the Nob, each wounding a W2 model that survives. One
    # psychic power a turn: it tests once (against the Boy, wounded first), not again for the Nob.
    report = run(
        "1x Librarian: WS5 S4 T4 W2 I4 A2 Ld10 Sv3+ force-weapon independent-character vs=1,2",
        "2x Ork Boy: WS4 S3 T4 W2 I2 A1 Ld7 Sv6+ | 1x Nob: WS4 S4 T4 W2 I3 A1 Ld7 Sv6+",
        [6, 6]  # to hit: Boyz, Nob
        + [6] + [1, 2]  # a wound on a Boy (no save against a force weapon); the test slays it
        + [6]  # a wound on the Nob: no second test
        + [1] + [1]  # the Nob and the last Boy miss
        + [1, 1] + [1, 1],  # both hold
        round=2,
    )  # fmt: skip
    assert len(rolls(report, "psychic test (force weapon)")) == 1
    assert len(events(report, "slain_outright")) == 1


def test_the_texts_name_every_unit_a_divided_unit_fights_and_count_one_hit_as_one() -> None:
    from rules_core import resolve

    marines = (
        "10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ | "
        "1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character vs=1,2"
    )
    orks = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ vs=1:8,2:2 | 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ vs=2"
    report = resolve("40k", marines, orks, seed=7, round=2)  # the Captain scores exactly 1 hit
    notes = [str(ev.get("note")) for step in report.steps for ev in step.events]
    titles = [step.title for step in report.steps]
    assert any(note.startswith("Captain fights Ork Boy and Nob: ") for note in notes)
    assert any(note.startswith("Ork Boy fights Marine and Captain: ") for note in notes)
    assert any(note.startswith("Captain scores 1 hit and divides it: ") for note in notes)
    assert "Initiative 5: Captain ×1 → Ork Boy (its 1 hit)" in titles
    assert "Captain's 1 hit on Ork Boy." in notes
