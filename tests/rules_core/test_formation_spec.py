"""Formation specs: defaults, every error names its token with an example, and the canonical form round-trips."""

from __future__ import annotations

import pytest

from rules_core import LimitError, RefereeError, SpecError, get_game, resolve
from rules_core.games.formation.game import FormationGame
from rules_core.games.formation.spec import Formation, UnitType

EPIC = get_game("epic")
REIK = get_game("reikhammer")


def parse(game: str, text: str) -> Formation:
    formation = get_game(game).parse_side(text)
    assert isinstance(formation, Formation)
    return formation


def test_a_group_with_no_position_is_all_in_base_contact() -> None:
    (group,) = parse("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF").groups
    assert (group.contact, group.in_range, group.out_of_fight) == (6, 0, 0)
    assert (group.cc, group.ff, group.save, group.unit_type) == (4, 4, 4, UnitType.INFANTRY)


def test_the_rest_of_a_group_given_a_position_is_not_directly_engaged() -> None:
    (group,) = parse("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=2").groups
    assert (group.contact, group.in_range, group.out_of_fight) == (2, 0, 4)
    (group,) = parse("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=2 ff=3").groups
    assert (group.contact, group.in_range, group.out_of_fight) == (2, 3, 1)


def test_types_specials_and_settings() -> None:
    (titan, guard) = parse(
        "epic",
        "1x Warlord: CC2+ FF3+ Sv4+ we DC=8 extra-attacks=3 macro-weapon reinforced-armour invulnerable | "
        "10x Guard: CC6+ FF5+ Sv- INF cover=4+ inspiring",
    ).groups
    assert (titan.unit_type, titan.dc, titan.extra_attacks) == (UnitType.WAR_ENGINE, 8, 3)
    assert titan.specials == {"macro-weapon", "reinforced-armour", "invulnerable"}
    assert (guard.save, guard.cover, guard.specials) == (None, 4, {"inspiring"})
    assert parse("epic", "1x Warhound: CC4+ FF3+ Sv5+ WE DC3").groups[0].dc == 3  # DC3 is DC=3


def test_reikhammer_writes_plain_values_and_either_save_form() -> None:
    (group,) = parse("reikhammer", "6x Line Infantry: CC4 FF3 Sv5+ INF").groups
    assert (group.cc, group.ff, group.save) == (4, 3, 5)
    assert parse("reikhammer", "6x Line Infantry: CC4 FF3 Sv5 INF") == parse(
        "reikhammer", "6x Line Infantry: CC4 FF3 Sv5+ INF"
    )


@pytest.mark.parametrize(
    ("game", "text", "token", "words"),
    [
        ("epic", "6x Tactical: CC4 FF4+ Sv4+ INF", "CC4", "Did you mean CC4+?"),
        ("epic", "6x Tactical: CC7+ FF4+ Sv4+ INF", "CC7+", "2+ to 6+"),
        ("reikhammer", "6x Line: CC4+ FF3 Sv5+ INF", "CC4+", "Did you mean CC4?"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+", "Tactical", "unit type"),
        ("epic", "6x Tactical: FF4+ Sv4+ INF", "Tactical", "missing CC"),
        ("epic", "1x Warhound: CC4+ FF3+ Sv5+ WE", "Warhound", "DC=3"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF DC=2", "DC=2", "only war engines"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=4 ff=3", "ff=3", "make 7"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF macro-weapons", "macro-weapons", "Did you mean 'macro-weapon'?"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF ccover=4+", "ccover=4+", "Did you mean 'cover'?"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF cover=4", "cover=4", "cover=4+"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF WS4", "WS4", "CC FF Sv"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF AV", "AV", "unit type twice"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF extra-attacks=0", "extra-attacks=0", "1 to 10"),
    ],
)
def test_bad_groups_are_named_with_an_example(game: str, text: str, token: str, words: str) -> None:
    with pytest.raises(SpecError) as info:
        get_game(game).parse_side(text)
    error = info.value
    assert error.token == token
    assert words in error.message
    assert error.example
    assert "\n" not in error.one_line()
    get_game(game).parse_side(error.example)  # the example itself is correct


def test_supporting_formations_are_checked_and_named_by_their_option() -> None:
    with pytest.raises(SpecError, match=r"^In attacker_support: .*FF value") as info:
        resolve("epic", "1x A: CC4+ FF4+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF", attacker_support="2x Guns: CC5+")
    assert info.value.example == "3x Devastators: FF3+"
    with pytest.raises(SpecError, match=r"^In defender_support: .*never in base contact"):
        resolve(
            "epic", "1x A: CC4+ FF4+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF", defender_support="2x Guns: FF5+ contact=1"
        )
    with pytest.raises(RefereeError, match="attacker_support is text"):
        resolve("epic", "1x A: CC4+ FF4+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF", attacker_support="  ")


def test_limits_and_roster_references() -> None:
    with pytest.raises(LimitError):
        EPIC.parse_side("150x A: CC4+ FF4+ Sv- INF ; 60x B: CC4+ FF4+ Sv- INF")
    with pytest.raises(SpecError, match="saved roster"):
        EPIC.parse_side("@my-army")


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=2 ff=4 ; 2x Rhino: CC6+ FF6+ Sv5+ AV ff=2"),
        ("epic", "1x Warlord: CC2+ FF3+ Sv4+ WE DC=8 extra-attacks=3 macro-weapon reinforced-armour invulnerable"),
        ("epic", "10x Guard: CC6+ FF5+ Sv- INF cover=4+ inspiring | 2x Sentinel: CC6+ FF- Sv6+ LV"),
        ("reikhammer", "6x Line Infantry: CC4 FF3 Sv5 INF contact=4 ff=2 ; 2x Field Gun: CC1 FF4 Sv- LV ff=2"),
    ],
)
def test_the_canonical_form_re_parses_to_the_same_formation(game: str, text: str) -> None:
    chosen = get_game(game)
    formation = chosen.parse_side(text)
    canonical = chosen.format_side(formation)
    assert chosen.parse_side(canonical) == formation
    assert chosen.format_side(chosen.parse_side(canonical)) == canonical


def test_a_bar_and_a_semicolon_both_separate_the_groups_of_a_formation() -> None:
    assert parse("epic", "2x A: CC4+ FF4+ Sv- INF | 1x B: CC5+ FF5+ Sv- LV") == parse(
        "epic", "2x A: CC4+ FF4+ Sv- INF ; 1x B: CC5+ FF5+ Sv- LV"
    )


_TACTICAL = "4x D: CC4+ FF4+ Sv4+ INF"
_LINE = "4x D: CC4 FF3 Sv5 INF"


@pytest.mark.parametrize(
    ("game", "support", "text"),
    [
        ("epic", False, f"{_TACTICAL} contact=5"),
        ("epic", False, f"{_TACTICAL} ff=5"),
        ("epic", False, f"{_TACTICAL} contact=x"),
        ("epic", False, f"{_TACTICAL} contact=3 ff=2"),
        ("epic", False, f"{_TACTICAL} extra-attacks=11"),
        ("epic", False, f"{_TACTICAL} DC=0"),
        ("epic", False, f"{_TACTICAL} DC=2"),
        ("epic", False, f"{_TACTICAL} DC0"),
        ("epic", False, "1x Warhound: CC4+ FF3+ Sv5+ WE DC=0"),
        ("epic", False, "1x Warhound: CC4+ FF3+ Sv5+ WE DC=21"),
        ("epic", False, "1x Warhound: CC4+ FF3+ Sv5+ WE DC0"),
        ("epic", False, "1x Warhound: CC4+ FF3+ Sv5+ WE"),
        ("epic", False, f"{_TACTICAL} cover=7+"),
        ("epic", False, f"{_TACTICAL} contact=1 contact=2"),
        ("epic", False, f"{_TACTICAL} ff=1 ff=2"),
        ("epic", True, "3x S: FF4+ ff=5"),
        ("epic", True, "3x S: FF4+ ff=x"),
        ("epic", True, "3x S: FF4+ ff=1 ff=2"),
        ("epic", True, "3x S: FF4+ contact=1"),
        ("epic", True, "3x S: FF4+ extra-attacks=0"),
        ("epic", True, "3x S: CC4+"),
        ("epic", True, "3x S: FF4+ DC=0"),
        ("reikhammer", False, f"{_LINE} contact=x"),
        ("reikhammer", False, f"{_LINE} ff=9"),
        ("reikhammer", False, f"{_LINE} DC=0"),
        ("reikhammer", False, "1x Giant: CC4 FF3 Sv5 WE DC=0"),
        ("reikhammer", True, "3x S: FF3 ff=x"),
        ("reikhammer", True, "3x S: FF3 contact=2"),
    ],
)
def test_every_example_an_error_shows_is_accepted_when_pasted_in_its_place(game: str, support: bool, text: str) -> None:
    chosen = get_game(game)
    assert isinstance(chosen, FormationGame)
    parse_it = chosen.parser.parse_support if support else chosen.parser.parse_formation
    with pytest.raises(SpecError) as info:
        parse_it(text)
    example = info.value.example
    assert example, info.value.message
    parse_it(example)  # pasted where the refused text was, the example is accepted
