"""The terminal writes every user error's structured parts its own way: `referee ...` commands, `--flags`, user ids;
never a slash command or a Discord option."""

from __future__ import annotations

import pytest

from bot.cli.common import TERMINAL
from bot.leagues.errors import LeagueError, MatchNotFound
from bot.leagues.rules import check_name, check_open_season
from tests.bot.test_cli import ASSAULT, referee


def test_an_option_error_names_the_flag_and_shows_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee(*ASSAULT, "--charge-distance", "far", capsys=capsys)
    assert code == 2
    assert err.strip() == (
        "error: The option --charge-distance is a number (0 to 100), not 'far'. Example: --charge-distance 4.5"
    )


def test_a_missing_roster_points_at_the_roster_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("assault", "40k", "--attacker", "@nobody", "--defender", "@nobody", capsys=capsys)
    assert code == 2
    assert err.strip() == "error: There is no 40k roster named 'nobody'. 'referee roster list --game 40k' shows yours."


def test_a_bad_seed_shows_the_seed_flag(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee(*ASSAULT, "--seed", "x", capsys=capsys)
    assert (code, err.strip()) == (2, "error: The seed must be a whole number, not 'x'. Example: --seed 12345")


def check_name_error() -> LeagueError:
    with pytest.raises(LeagueError) as refused:
        check_name("??")
    return refused.value


def ended_season_error() -> LeagueError:
    with pytest.raises(LeagueError) as refused:
        check_open_season("Spring", 2, is_open=False)
    return refused.value


def test_league_errors_say_in_words_what_only_discord_does() -> None:
    for error in (MatchNotFound(4), check_name_error(),
                  ended_season_error()):  # fmt: skip
        line = error.one_line(TERMINAL)
        assert "/" not in line and "name:" not in line, line
    assert check_name_error().one_line(TERMINAL).endswith("Example: Organisers create leagues in Discord.")
    assert MatchNotFound(4).one_line(TERMINAL) == (
        "There is no league match #4. 'referee league history LEAGUE' lists the league's matches."
    )
    assert ended_season_error().one_line(TERMINAL) == (
        "Season 2 of Spring has ended. An organiser starts the next season in Discord."
    )


def test_an_unknown_keyword_points_at_the_game_help(capsys: pytest.CaptureFixture[str]) -> None:
    """rules_core says 'the game's help' as a hint; the terminal names its own command (was: 'The 40K help')."""
    code, _, err = referee("assault", "40k", "--attacker", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ chainswrd",
                           "--defender", "5x O: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+", capsys=capsys)  # fmt: skip
    assert code == 2
    # A turn's facts (charged, decision 21) are guessed only one letter off: no weapon is near 'chainswrd'.
    assert err.splitlines()[0] == "error: Unknown keyword 'chainswrd' on 'M'. See 'referee help 40k'."
    assert err.splitlines()[-1].startswith("Example: 10x Tactical Marine:")  # no certain fix: the game's example


TYPO = "5x Marine: WS 4 S4 T4 W1 I4 A1 Ld8 Sv3"
ORKS = "5x O: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def test_a_typo_is_shown_under_a_caret_with_the_corrected_spec_to_copy(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("assault", "40k", "--attacker", TYPO, "--defender", ORKS, capsys=capsys)
    assert code == 2
    assert err.splitlines() == [
        "error: Cannot read 'WS 4': write a stat with no space between its key and its value, as WS4.",
        "  --attacker: 5x Marine: WS 4 S4 T4 W1 I4 A1 Ld8 Sv3",
        "                         ^^^^",
        "Corrected, to copy: --attacker '5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+'",  # the save's '+' too
    ]
    code, _, err = referee("assault", "40k", "--attacker", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                           "--defender", ORKS, capsys=capsys)  # fmt: skip
    assert code == 0, err


def test_a_long_spec_is_shown_around_its_faulty_token_within_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    units = " | ".join(f"2x Unit {n}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+" for n in range(8))
    code, _, err = referee("assault", "40k", "--attacker", units + " | 1x Odd: WS4 S4 T4 W1 I4 A1 Ld8 Sb4+",
                           "--defender", ORKS, capsys=capsys)  # fmt: skip
    assert code == 2
    _, spec, carets, corrected = err.splitlines()
    assert len(spec) <= 80 and spec.startswith("  --attacker: …") and spec.endswith("Sb4+")
    assert spec[carets.index("^") :] == "Sb4+" and carets.strip() == "^^^^"
    assert corrected.endswith("1x Odd: WS4 S4 T4 W1 I4 A1 Ld8 Sv4+'")


def test_a_roster_name_one_letter_off_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    spec = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    assert referee("roster", "save", "marines", "--game", "40k", "--spec", spec, capsys=capsys)[0] == 0
    code, _, err = referee("assault", "40k", "--attacker", "@marine", "--defender", ORKS, capsys=capsys)
    assert (code, err.strip()) == (2, "error: There is no 40k roster named 'marine'. Did you mean @marines? "
                                      "'referee roster list --game 40k' shows yours.")  # fmt: skip
    code, _, err = referee("roster", "delete", "marine", "--game", "40k", capsys=capsys)
    assert code == 2 and err.startswith("error: You have no 40k roster named 'marine'. Did you mean @marines?")


def test_the_odds_show_a_typo_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("odds", "40k", "--attacker", ORKS, "--defender", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3",
                           capsys=capsys)  # fmt: skip
    assert code == 2
    assert err.splitlines()[1:] == [
        "  --defender: 5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3",
        "                                                ^^^",
        "Corrected, to copy: --defender '5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+'",
    ]


@pytest.mark.parametrize(
    ("typed", "corrected"),
    [
        ("5x M: WS4 S4 T4 W1 I4 A1 Ld8 3+", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"),
        ("5x M: WS4, S4, T4, W1, I4, A1, Ld8, Sv3+", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"),
        ("5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ power fist", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ power-fist"),
    ],
)
def test_input_slips_get_the_right_hint_in_the_terminal(
    typed: str, corrected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33: 'Ld8 3+' is a save with its key missing; commas are no separators; 'power fist' is power-fist."""
    code, _, err = referee("assault", "40k", "--attacker", typed, "--defender", ORKS, capsys=capsys)
    assert code == 2 and "Ld83+" not in err and "Weapon Skill" not in err, err
    assert err.splitlines()[-1] == f"Corrected, to copy: --attacker '{corrected}'", err


def test_a_rules_error_names_options_as_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """It named shot_this_turn and showed 'charge_distance=4 (without shot_this_turn)' in the terminal."""
    code, _, err = referee(*ASSAULT, "--shot-this-turn", "--charge-distance", "4", capsys=capsys)
    assert code == 2
    assert "shot_this_turn" not in err and "charge_distance" not in err and "--shot-this-turn" in err, err
    assert err.strip().endswith("Example: --charge-distance 4"), err
    code, _, err = referee(*ASSAULT, "--round", "2", "--charge-distance", "4", capsys=capsys)
    assert code == 2 and "charge_distance" not in err and "--charge-distance" in err, err
    assert err.strip().endswith("Example: --round 2"), err


def test_a_flag_near_a_known_one_suggests_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee(*ASSAULT, "--cover", capsys=capsys)
    assert code == 2
    assert "Did you mean --defender-in-cover, --cover-power-fists or --cover-later-round?" in err, err
    code, _, err = referee(*ASSAULT, "--charge-distanse", "4", capsys=capsys)
    assert code == 2 and "Did you mean --charge-distance?" in err, err


def test_a_name_that_fits_several_games_lists_each_with_its_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("assault", "warhammer", capsys=capsys)
    assert code == 2
    assert "40k (referee assault 40k), duel (referee duel) or reikhammer (referee assault reikhammer)" in err, err
    code, _, err = referee("help", "warhammer", capsys=capsys)
    assert code == 2 and "referee assault 40k" in err and "/" not in err, err


@pytest.mark.parametrize(
    ("flag", "said"),
    [
        ("--cover", "Did you mean --reaction-modifiers? Cover from the reaction fire is a to-hit modifier"),
        ("--charge-distance", "Did you mean --distance?"),
        ("--pins", "write pins=N in its spec"),
    ],
)
def test_a_near_miss_flag_in_bolt_action_names_its_own(
    flag: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review B, finding 4: 'No such option --cover.' with no suggestion (cover goes in --reaction-modifiers)."""
    sides = ("--attacker", "6x A: regular", "--defender", "6x B: regular")
    code, _, err = referee("closequarters", *sides, flag, "2", capsys=capsys)
    assert code == 2 and said in err and "reaction_modifiers" not in err, err


def test_a_capitalised_two_word_keyword_is_marked_and_corrected_in_the_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Review B, finding 2: 'Power Sword' had no caret and no corrected spec."""
    hero = "Hero: WS4 S4 T4 W1 I4 A1 Sv3+"
    code, _, err = referee("duel", "--attacker", hero + " Power Sword", "--defender", "Ork: WS4 S3 T4 W1 I2 A1 Sv6+",
                           capsys=capsys)  # fmt: skip
    assert code == 2 and "^^^^^^^^^^^" in err, err
    assert err.splitlines()[-1] == f"Corrected, to copy: --attacker '{hero} power-sword'", err
