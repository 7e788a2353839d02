"""A league that requires agreed combats (issue 24), as the league domain decides it on plain values: every combat a
match lists was agreed, and agreed between the match's two players; a match listing none passes."""

from __future__ import annotations

import pytest

from bot.cli.common import TERMINAL
from bot.discord.errors import DISCORD
from bot.leagues.errors import LeagueError
from bot.leagues.model import Agreement
from bot.leagues.rules import check_agreed
from rules_core import all_games

GAME = all_games()[0].id


def agreed(
    record: int, challenger: str | None = "ann", opponent: str | None = "bob", *, by: str = "discord",
    holds: bool = True,
) -> Agreement:  # fmt: skip
    return Agreement(record, 7, challenger, opponent, "2026-11-26T12:00:00+00:00", "2026-11-26T12:01:00+00:00",
                     by=by, holds=holds)  # fmt: skip


def refusal(combats: tuple[int, ...], agreements: dict[int, Agreement]) -> LeagueError:
    with pytest.raises(LeagueError) as caught:
        check_agreed(combats, agreements, ("ann", "bob"), game=GAME, required=True)
    return caught.value


def test_combats_agreed_between_the_two_players_pass_either_way_round() -> None:
    check_agreed((12, 15), {12: agreed(12), 15: agreed(15, "bob", "ann")}, ("ann", "bob"), game=GAME, required=True)
    check_agreed((12,), {12: agreed(12)}, ("bob", "ann"), game=GAME, required=True)


def test_a_match_with_no_combats_passes() -> None:
    """The requirement is about the combats a report cites; a game fought at a table lists none."""
    check_agreed((), {}, ("ann", "bob"), game=GAME, required=True)


def test_a_league_that_does_not_require_it_takes_any_combat() -> None:
    check_agreed((12, 15), {}, ("ann", "bob"), game=GAME, required=False)
    check_agreed((12,), {12: agreed(12, "cid", "dee")}, ("ann", "bob"), game=GAME, required=False)


def test_combats_not_agreed_are_named_every_one() -> None:
    error = refusal((12, 15, 18), {15: agreed(15)})
    assert "#12, #18 were not agreed" in error.message and "#15" not in error.message
    assert "#12 was not agreed" in refusal((12,), {}).message


def test_a_combat_agreed_between_others_is_named_with_who_agreed_it() -> None:
    error = refusal((12, 15), {12: agreed(12), 15: agreed(15, "ann", "cid")})
    assert "#15 was agreed between ann and cid" in error.message
    assert "#12" not in error.message
    assert "agreed between nobody named and ann" in refusal((3,), {3: agreed(3, None, "ann")}).message
    assert "#4 was agreed between ann and ann" in refusal((4,), {4: agreed(4, "ann", "ann")}).message


def test_a_terminal_agreement_does_not_count_and_is_named() -> None:
    """`referee accept` is run by whoever holds the challenge file: it proves the seed was fixed in advance, not that
    the opponent agreed, so a league requiring agreement counts only Discord's acceptances."""
    error = refusal((12, 15), {12: agreed(12), 15: agreed(15, by="terminal")})
    assert "#15 was accepted in the terminal" in error.message and "#12" not in error.message
    assert not agreed(15, by="terminal").counts and agreed(12).counts
    assert "#3, #4 were accepted in the terminal" in refusal((3, 4), {3: agreed(3, by="terminal"),
                                                                   4: agreed(4, by="terminal")}).message  # fmt: skip


def test_an_agreement_whose_dice_no_longer_hold_does_not_count() -> None:
    error = refusal((12, 15), {12: agreed(12), 15: agreed(15, holds=False)})
    assert "the dice of #15 no longer match the commitment" in error.message and "#12" not in error.message
    assert not agreed(15, holds=False).counts


def test_the_refusal_says_how_to_fight_one_agreed_in_each_front_ends_words() -> None:
    error = refusal((12,), {})
    on_discord = error.one_line(DISCORD)
    assert "opponent:@Bob agree:true" in on_discord and on_discord.count("\n") == 0
    assert "referee" not in on_discord and "--" not in on_discord
    in_terminal = error.one_line(TERMINAL)
    assert f"referee challenge {GAME}" in in_terminal and "referee accept" in in_terminal
    assert "/" + GAME not in in_terminal and "agree:true" not in in_terminal
    for game in all_games():
        with pytest.raises(LeagueError) as caught:
            check_agreed((1,), {}, ("ann", "bob"), game=game.id, required=True)
        assert f"/{game.command}" in caught.value.one_line(DISCORD)
