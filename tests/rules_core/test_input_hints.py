"""Errors in what a player types point the right way (issue 33, "Input a player types"): a roll with its key
missing, commas between tokens, a two-word keyword, each game's own tokens in its errors, keywords in any case,
option names and game names that fit several games. The front ends' words are in tests/bot/test_cli_errors.py and
tests/cogs/test_error_words.py."""

from __future__ import annotations

import re

import pytest

from bot.data import catalogue
from rules_core import RefereeError, all_games, get_game, parse_given
from rules_core.errors import PLAIN, GameCommand, OptionName, UnknownGameError
from rules_core.options import validate_options
from rules_core.registry import Game

MARINES = "5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def refused(game: str | Game, text: str) -> RefereeError:
    chosen = catalogue().game(game) if isinstance(game, str) else game
    with pytest.raises(RefereeError) as error:
        parse_given(chosen, text, "attacker")
    return error.value


def corrected(game: str, text: str) -> str | None:
    given = refused(game, text).given
    assert given is not None
    return given.corrected


def test_a_roll_after_a_stat_is_a_stat_with_its_key_missing_not_the_stat_before_it() -> None:
    """'Ld8 3+' is the save without its key (Sv3+), never 'Ld83+'."""
    error = refused("40k", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 3+")
    assert "Ld83+" not in error.message and "Sv3+" in error.message, error.message
    assert corrected("40k", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 3+") == MARINES
    assert corrected("40k", "5x M: WS4 4 T4 W1 I4 A1 Ld8 Sv3+") == MARINES  # a number: the first missing number
    assert corrected("epic", "6x T: CC4+ FF4+ 5+ INF") == "6x T: CC4+ FF4+ Sv5+ INF"
    assert corrected("40k", "5x M: WS 4 S4 T4 W1 I4 A1 Ld8 Sv3+") == MARINES  # a key and its value apart, as before


@pytest.mark.parametrize(
    "text",
    [
        "5x M: WS4, S4, T4, W1, I4, A1, Ld8, Sv3+",
        "5x M: WS4,S4,T4,W1,I4,A1,Ld8,Sv3+",
        "5x M: WS4 , S4 T4 W1 I4 A1 Ld8 Sv3+",
    ],
)
def test_commas_between_tokens_are_said_to_be_no_separators(text: str) -> None:
    error = refused("40k", text)
    assert "comma" in error.message.lower() and "Weapon Skill" not in error.message, error.message
    assert "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+" in error.message  # the tokens shown without them
    assert corrected("40k", text) == MARINES


def test_a_comma_inside_a_settings_value_is_its_own() -> None:
    error = refused("40k", "5x M: WS4, S4, T4, W1, I4, A1, Ld8, Sv3+ vs=1,2")
    assert "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=1,2" in error.message, error.message


def test_a_two_word_keyword_finds_its_hyphenated_form_first() -> None:
    error = refused("duel", "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power sword")
    assert "power-sword" in error.message and "power-axe" not in error.message, error.message
    assert corrected("duel", "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power sword") == (
        "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power-sword"
    )
    assert corrected("boltaction", "6x A: veteran tough fighters") == "6x A: veteran tough-fighters"
    assert corrected("40k", MARINES + " power fist") == MARINES + " power-fist"
    # 40K has no power-sword: the hyphenated form is what is compared (power-weapon), not the first word alone.
    error = refused("40k", MARINES + " power sword")
    assert "power-weapon" in error.message and "power-fist" not in error.message, error.message


def test_keywords_are_read_in_any_case_in_every_game() -> None:
    """docs/specs.md: 'A keyword the game knows is read in any case' (NCO was refused while Nco was read)."""
    unit = catalogue().game("boltaction").parse_side("6x A: VETERAN NCO")
    assert unit.quality.value == "veteran" and unit.has("nco")
    assert catalogue().game("boltaction").parse_side("6x A: Veteran Nco Tough-Fighters").has("tough-fighters")


MESSAGE_TOKENS = re.compile(r"\(([^()]*)\)")
SHARED_BAD = ("3x Nobody: !!", "3x Nobody: a.b")  # tokens that no game reads


@pytest.mark.parametrize("game", [catalogue().game(g) for g in all_games()], ids=lambda g: g.id)
def test_every_game_shows_its_own_tokens_in_a_spec_error(game: Game) -> None:
    """A Bolt Action error listed 40K tokens (WS4, Sv3+, engaged=3, power-fist): each names only tokens its game
    reads, and the example under it is the game's own."""
    own = set()
    for doc in game.tokens:
        own.update(re.split(r"[\s/]+", f"{doc.token} {doc.example}"))
    own.update(f"{game.example_attacker} {game.example_defender}".split())
    for text in SHARED_BAD:
        error = refused(game, text)
        example = error.example_of(PLAIN) or ""
        game.parse_side(example)  # the example under it is the game's own
        own.update(example.split())
        named = [word for inside in MESSAGE_TOKENS.findall(error.message) for word in re.split(r",\s*", inside)]
        assert named, error.message
        for word in named:
            assert word in own, (word, error.message)


def test_an_unknown_option_suggests_the_one_it_is_near() -> None:
    game = get_game("40k")
    with pytest.raises(RefereeError) as error:
        validate_options(game.options, {"cover": True})
    assert OptionName("defender_in_cover") in error.value.parts, error.value.parts
    assert "Did you mean defender_in_cover, cover_power_fists or cover_later_round?" in error.value.message, (
        error.value.message
    )


def test_a_name_that_fits_several_games_lists_them_all_with_their_commands() -> None:
    with pytest.raises(UnknownGameError) as error:
        get_game("warhammer")
    commands = [part for part in error.value.parts if isinstance(part, GameCommand)]
    assert [part.game for part in commands] == ["40k", "duel", "reikhammer"], error.value.parts
    assert "assault 40k" in error.value.message and "duel" in error.value.message, error.value.message


def test_a_value_after_an_unknown_key_is_that_key_and_value_apart_not_a_keyless_stat() -> None:
    """Epic has no WS: 'WS 4' is not a DC with its key missing."""
    error = refused("epic", "6x A: CC4+ FF4+ Sv4+ INF WS 4")
    assert error.message == (
        "Cannot read the token '4': write stats as KEYvalue (CC4+, FF4+), settings as key=value (contact=4) and "
        "unit types in capitals (INF)."
    )
    assert error.given is not None and error.given.corrected is None  # nothing certain to copy


@pytest.mark.parametrize("game", [catalogue().game(g) for g in all_games()], ids=lambda g: g.id)
def test_every_games_keywords_read_in_capitals(game: Game) -> None:
    for text in (game.example_attacker, game.example_defender):
        shouted = " ".join(word.upper() if re.fullmatch(r"[a-z][a-z-]*", word) else word for word in text.split())
        assert game.format_side(game.parse_side(shouted)) == game.format_side(game.parse_side(text)), shouted


def test_a_keyless_value_is_read_as_a_stat_the_whole_group_lacks() -> None:
    """The save given later in the group is not missing: '3+' first, before Sv3+, is the invulnerable save."""
    assert corrected("40k", "5x M: 4+ WS4 S4 T4 W1 I4 A1 Ld8 Sv3+") == "5x M: Inv4+ WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


@pytest.mark.parametrize(
    ("game", "typed", "fixed"),
    [
        ("duel", "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ Power Sword", "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power-sword"),
        ("40k", MARINES + " Power Fist", MARINES + " power-fist"),
        ("40k", MARINES + " Lightning Claws", MARINES + " lightning-claws"),
        ("boltaction", "6x A: Regular Tough Fighters", "6x A: Regular tough-fighters"),
    ],
)
def test_a_capitalised_two_word_keyword_gets_the_mark_and_the_fix_of_its_lower_case_form(
    game: str, typed: str, fixed: str
) -> None:
    """Review B, finding 2: 'Power Sword' was named 'power Sword' (a form never typed), unmarked, uncorrected."""
    error = refused(game, typed)
    given = error.given
    assert given is not None and given.corrected == fixed, (error.message, given)
    written = " ".join(typed.split()[-2:])
    assert f"'{written}'" in error.message, error.message
    assert given.excerpt(200)[1] is not None  # the marker is under the two words


def test_a_number_after_a_list_setting_joins_its_list() -> None:
    """Review B, finding 1: 'high-ground=1 3' was 'corrected' to 'high-ground=1 M3', losing opponent 3."""
    hero = "Hero: WS4 S4 T4 W1 I4 A1 Sv3+"
    error = refused("duel", hero + " high-ground=1 3")
    assert "M3" not in error.message and "high-ground=1,3" in error.message, error.message
    assert corrected("duel", hero + " high-ground=1 3") == hero + " high-ground=1,3"
    assert corrected("40k", MARINES.replace("5x M", "1x C") + " independent-character vs=1 2") == (
        MARINES.replace("5x M", "1x C") + " independent-character vs=1,2"
    )


def test_a_lone_number_that_may_be_several_stats_gets_no_certain_fix() -> None:
    """Review B, finding 1: the duel's 'Sv3+ 3' was 'corrected' to M3, a guess (the duel has M, BS, Ld missing)."""
    error = refused("duel", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ 3")
    assert error.given is not None and error.given.corrected is None, error.given
    assert "M3" in error.message and "BS3" in error.message, error.message


@pytest.mark.parametrize(
    ("game", "typed", "fixed"),
    [
        ("boltaction", "10x Rifles: regular smg 2", "10x Rifles: regular smg=2"),
        ("boltaction", "10x Rifles: regular SMG 2", "10x Rifles: regular smg=2"),
        ("boltaction", "10x Rifles: regular pins 2", "10x Rifles: regular pins=2"),
        ("epic", "5x Marines: CC4+ FF4+ Sv4+ INF contact 2", "5x Marines: CC4+ FF4+ Sv4+ INF contact=2"),
        ("duel", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ high-ground 3", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ high-ground=3"),
    ],
)
def test_a_value_written_apart_from_its_setting_is_that_settings_value(game: str, typed: str, fixed: str) -> None:
    """Review B, finding 4: 'smg 2', 'pins 2', 'contact 2' got the generic message, no fix."""
    error = refused(game, typed)
    assert "=" in error.message and fixed.rsplit(maxsplit=1)[-1] in error.message, error.message
    assert corrected(game, typed) == fixed


def test_epic_infantry_with_a_lone_number_is_not_told_of_a_damage_capacity() -> None:
    """Review B, finding 4: 'INF 3' said 'as DC3', but only war engines (WE) have a DC."""
    error = refused("epic", "5x Marines: CC4+ FF4+ Sv4+ INF 3")
    assert "DC" not in error.message and error.given is not None and error.given.corrected is None, error.message
    assert "CC4+" in error.message, error.message  # the game's own tokens


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("cover", "Did you mean reaction_modifiers? Cover from the reaction fire is a to-hit modifier: give -1"),
        ("charge_distance", "Did you mean distance?"),
        ("pins", "Pins are a unit's own: write pins=N in its spec"),
    ],
)
def test_a_near_miss_in_bolt_action_names_its_own_option_or_token(given: str, said: str) -> None:
    """Review B, finding 4: --cover, --charge-distance and --pins got no suggestion in Bolt Action."""
    with pytest.raises(RefereeError) as error:
        validate_options(get_game("boltaction").options, {given: 1})
    assert said in error.value.message, error.value.message


def test_a_name_of_several_words_lists_every_game_its_words_fit_the_closest_first() -> None:
    """Review B, finding 4: 'warhammer 2nd' suggested only 40k, while '2nd' alone suggests the duel."""
    with pytest.raises(UnknownGameError) as error:
        get_game("warhammer 2nd")
    commands = [part.game for part in error.value.parts if isinstance(part, GameCommand)]
    assert commands == ["duel", "40k", "reikhammer"], error.value.parts
    with pytest.raises(UnknownGameError) as error:
        get_game("warhammer 40k")
    assert next(part.game for part in error.value.parts if isinstance(part, GameCommand)) == "40k", error.value.parts
