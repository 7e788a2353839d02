"""Every error a Discord user can get from a game's bad input, a bad option or a roster, written the Discord way
(bot/discord/errors.py): slash commands and `option:value`, never a `referee ...` command or a `--flag` (issue 20:
"See 'referee help 40k'", "'referee roster list --game 40k' shows yours"). tests/rules_core/test_neutral_errors.py
checks the neutral half; the terminal's words are in tests/bot/test_cli_errors.py."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

import rules_core
from bot.cli.common import error_text
from bot.data import catalogue
from bot.discord.errors import referee_error_embed
from bot.rosters import RosterError, check_name, check_roster, parse_roster_file, pick_unit
from bot.storage.rosters import RosterExists, RosterNotFound, SavedRoster
from rules_core import RefereeError, all_games, parse_given
from rules_core.errors import Do, Hint
from rules_core.options import validate_options
from rules_core.registry import Game
from tests.rules_core.test_neutral_errors import errors_of

TERMINAL_COMMAND = re.compile(r"\breferee [a-z]")
FLAG = re.compile(r"(^|[\s'`(\"])--[a-z]")
SLASH = re.compile(r"(^|[\s'`(\"])/[a-z]")


def raised(attempt: Callable[[], object]) -> RefereeError:
    with pytest.raises(RefereeError) as refused:
        attempt()
    return refused.value


def given_errors(game: Game) -> Iterator[RefereeError]:
    """Bad specs as a player gives them (each error holds the spec, marked, corrected where certain)."""
    example = game.example_attacker
    typos = ["A:", "10x", "3x Nobody: XX9 !!", "@my-roster | " + example, example + " no-such-keyword",
             example.replace(":", "", 1), example + " x = 3", "|".join([example] * 60)]  # fmt: skip
    stat = re.search(r"\b([A-Z][A-Za-z]*)(\d\+?)", example)
    if stat is not None:  # WS 4
        typos.append(example.replace(stat.group(0), f"{stat.group(1)} {stat.group(2)}", 1))
    word = next(w for w in example.split() if re.fullmatch(r"[a-z][a-z-]{4,}", w.split("=")[0]))
    typos.append(example.replace(word, word[:2] + word[3] + word[2] + word[4:], 1))  # two letters swapped
    for text in typos:
        error = raised(lambda text=text: parse_given(game, text, "attacker"))
        assert error.given is not None and error.given.text, error
        yield error


def roster_errors(game: Game) -> Iterator[RefereeError]:
    saved = SavedRoster("1", game.id, "marines", game.example_attacker, "", None, datetime.now(UTC), datetime.now(UTC))
    yield raised(lambda: check_name("Bad Name"))
    yield raised(lambda: check_roster(game.id, "x", "@other"))
    yield raised(lambda: check_roster(game.id, "x", game.example_attacker + " no-such-keyword"))
    yield raised(lambda: parse_roster_file("rosters: [", source="bad.yaml"))
    yield raised(lambda: parse_roster_file("schema: nope"))
    yield raised(lambda: parse_roster_file(f"schema: referee-rosters/1\nrosters: [{{name: x, game: {game.id}}}]"))
    yield raised(lambda: pick_unit(saved, "nobody"))
    yield RosterNotFound(f"There is no {game.id} roster named 'marine'. Did you mean @marines?",
                         hint=Hint(Do.LIST_ROSTERS, game.id))  # fmt: skip
    yield RosterExists(f"You already have a {game.id} roster named 'marines'.")
    yield RosterError("A roster", hint=Hint(Do.GAME_HELP, game.id))


def embed_text(embed: discord.Embed) -> str:
    data: dict[str, Any] = embed.to_dict()
    return " ".join([data.get("description", ""), *(f"{f['name']} {f['value']}" for f in data.get("fields", []))])


@pytest.mark.parametrize("game", [catalogue().game(g) for g in all_games()], ids=lambda g: g.id)
def test_every_error_a_discord_user_can_get_names_discord_commands_only(game: Game) -> None:
    errors = [*errors_of(game), *given_errors(game), *roster_errors(game)]
    assert len(errors) > len(game.options) + 10
    for error in errors:
        text = embed_text(referee_error_embed(error))
        assert not TERMINAL_COMMAND.search(text) and not FLAG.search(text), text
        if error.hint is not None:
            assert "'/" in text, text  # what to do next, as a slash command
        terminal = error_text(error)  # and the terminal's counterpart names no slash command
        assert not SLASH.search(terminal.replace(" | ", " ")), terminal


@pytest.mark.parametrize("game", [catalogue().game(g) for g in all_games()], ids=lambda g: g.id)
def test_every_corrected_spec_parses_and_the_mark_is_on_the_token(game: Game) -> None:
    corrected = 0
    for error in given_errors(game):
        given = error.given
        assert given is not None
        if given.span is not None:
            assert given.marked().count("⟦") == 1 and error.token is not None
            start, end = given.span
            assert " ".join(given.text[start:end].split()) == error.token
        if given.corrected is not None:
            corrected += 1
            game.parse_side(given.corrected)  # raises if the correction offered does not parse
            assert given.corrected != given.text
            embed = embed_text(referee_error_embed(error))
            assert f"Corrected attacker, to copy ```\n{given.corrected}\n```" in embed
    assert corrected >= 1  # each game has at least one certain fix among the typos (engagd=3 or a near setting)


def test_option_and_game_names_are_written_the_discord_way() -> None:
    """Issue 33: options as `shot_this_turn` and charge_distance:4, a game's command as /assault 40k."""
    game = catalogue().game("40k")
    error = raised(lambda: rules_core.resolve(game, game.example_attacker, game.example_defender, seed=1,
                                              shot_this_turn=True, charge_distance=4))  # fmt: skip
    text = embed_text(referee_error_embed(error))
    assert "`shot_this_turn`" in text and "charge_distance:4" in text and "charge_distance=4" not in text, text
    error = raised(lambda: validate_options(game.options, {"cover": True}))
    assert "Did you mean `defender_in_cover`, `cover_power_fists` or `cover_later_round`?" in embed_text(
        referee_error_embed(error)
    )
    text = embed_text(referee_error_embed(raised(lambda: rules_core.get_game("warhammer"))))
    assert "40k (/assault 40k), duel (/duel) or reikhammer (/assault reikhammer)" in text, text
    assert not TERMINAL_COMMAND.search(text), text


def test_near_misses_and_values_apart_are_fixed_the_discord_way() -> None:
    """Review B, findings 1, 2 and 4: Discord shows the same corrections as the terminal, its options its own way."""
    game = catalogue().game("boltaction")
    text = embed_text(referee_error_embed(raised(lambda: validate_options(game.options, {"cover": True}))))
    assert "Did you mean `reaction_modifiers`?" in text and "`defended_obstacle`" in text, text
    assert not FLAG.search(text) and not TERMINAL_COMMAND.search(text), text
    for game_id, typed, fixed in (
        ("duel", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ high-ground=1 3", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ high-ground=1,3"),
        ("duel", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ Power Sword", "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ power-sword"),
        ("boltaction", "10x Rifles: regular smg 2", "10x Rifles: regular smg=2"),
    ):
        error = raised(lambda game_id=game_id, typed=typed: parse_given(catalogue().game(game_id), typed, "attacker"))
        text = embed_text(referee_error_embed(error))
        assert f"Corrected attacker, to copy ```\n{fixed}\n```" in text and "⟦" in text, text
    error = raised(lambda: parse_given(catalogue().game("duel"), "Hero: WS4 S4 T4 W1 I4 A1 Sv3+ 3", "attacker"))
    assert "Corrected" not in embed_text(referee_error_embed(error))
