"""Every name of a game (its id, each alias, its command, the slash command's path) finds the same game in every
place a game is named: the registry, `referee help`, `samples`, `odds`, the fight commands, `roster`, `history`,
and the Discord side (the /history game autocomplete, the game choices)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from pydantic import SecretStr

from bot.data import load_samples
from bot.discord.app import EXTENSIONS, RefereeBot
from bot.discord.settings import Settings
from rules_core import UnknownGameError, all_games, get_game
from rules_core.registry import Game, register
from tests.bot.test_cli import referee

GAMES = all_games()
COMMANDS = Counter(game.command for game in GAMES)


def names_of(game: Game) -> list[str]:
    """Written here from the games' declarations, not taken from the registry's own list."""
    names = [game.id, *game.aliases, game.id.upper()]
    if COMMANDS[game.command] == 1:  # closequarters, duel: the command is the game
        names += [game.command, f"/{game.command}"]
    else:  # assault 40k, assault epic...: the command and the game together
        names += [f"{game.command} {game.id}", f"/{game.command} {game.id}"]
    return list(dict.fromkeys(names))


CASES = [pytest.param(game, name, id=f"{game.id}:{name}") for game in GAMES for name in names_of(game)]


def headers(samples_output: str) -> set[str]:
    """The games `referee samples` printed (each game's name on a line of its own, its samples below)."""
    files = {sample_file.game for sample_file in load_samples()}
    return {line.strip() for line in samples_output.splitlines() if line.strip() in files}


def example_options(game: Game) -> list[str]:
    words = []
    for name, value in game.example_options.items():
        words += ["--" + name.replace("_", "-"), str(value)]
    return words


def test_there_is_something_to_walk() -> None:
    assert {"closequarters", "/closequarters", "ba", "assault 40k", "wh40k", "duel", "40k2"} <= {
        name for game in GAMES for name in names_of(game)
    }


@pytest.mark.parametrize(("game", "name"), CASES)
def test_the_registry(game: Game, name: str) -> None:
    assert get_game(name) is game
    assert get_game(f"  {name.upper()} ") is game


def test_a_command_shared_by_several_games_names_them_all() -> None:
    shared = [command for command, count in COMMANDS.items() if count > 1]
    assert shared == ["assault"]
    with pytest.raises(UnknownGameError) as caught:
        get_game("assault")
    message = caught.value.message
    assert all(game.id in message for game in GAMES if game.command == "assault")
    assert caught.value.example in {game.id for game in GAMES if game.command == "assault"}


@pytest.mark.parametrize(("game", "name"), CASES)
def test_referee_help_and_samples(game: Game, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = referee("help", name, capsys=capsys)
    assert code == 0, err
    assert game.title in " ".join(out.split())
    code, out, err = referee("samples", name, capsys=capsys)
    assert code == 0, err
    (shipped,) = [sample_file for sample_file in load_samples() if get_game(sample_file.game) is game]
    assert all(f"  {sample.key}:" in out for sample in shipped.samples)
    assert headers(out) == {shipped.game}


def test_referee_help_and_samples_of_assault_list_its_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = referee("help", "assault", capsys=capsys)
    assert code == 0, err
    for game in GAMES:
        assert (f"assault {game.id}" in out) == (game.command == "assault")
    code, out, err = referee("samples", "assault", capsys=capsys)
    assert code == 0, err
    assert headers(out) == {game.id for game in GAMES if game.command == "assault"}


@pytest.mark.parametrize(("game", "name"), CASES)
def test_the_fight_and_odds_commands(game: Game, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    sides = ("--attacker", game.example_attacker, "--defender", game.example_defender, *example_options(game))
    # Where the game's own command lives (referee closequarters / referee assault 40k), by any of its names,
    # at the top and under assault.
    for place in ((name,), ("assault", name)):
        code, out, err = referee(*place, *sides, "--seed", "5", "--json", capsys=capsys)
        assert code == 0, (place, err)
        assert json.loads(out)["game"] == game.id
    code, out, err = referee("odds", name, *sides, "--method", "monte-carlo", "--trials", "100", "--json",
                             capsys=capsys)  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["game"] == game.id


@pytest.mark.parametrize(("game", "name"), CASES)
def test_rosters_and_history(game: Game, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    spec = game.example_defender
    steps: list[tuple[str, ...]] = [
        ("roster", "save", "names-walk", "--game", name, "--spec", spec),
        ("roster", "show", "names-walk", "--game", name),
        ("roster", "list", "--game", name),
        ("roster", "export", "--game", name),
        ("roster", "delete", "names-walk", "--game", name),
        ("roster", "import", "--samples", name),
        ("history", "--game", name),
    ]
    for args in steps:
        code, out, err = referee(*args, capsys=capsys)
        assert code == 0, (args, err)
        if args[1] in {"save", "show", "list", "delete"}:
            assert game.id in out, (args, out)
        if args[1] == "import":
            assert f"({game.id})" in out and all(f"({other.id})" not in out for other in GAMES if other is not game)


@pytest.fixture
async def bot(tmp_path: Any) -> RefereeBot:
    settings = Settings(discord_token=SecretStr("test"), database_url=f"sqlite+aiosqlite:///{tmp_path}/b.db",
                        _env_file=None)  # type: ignore[call-arg]  # fmt: skip
    referee_bot = RefereeBot(settings)
    for extension in EXTENSIONS:
        await referee_bot.load_extension(extension)
    return referee_bot


async def test_discord_game_choices_and_autocomplete_know_every_name(bot: RefereeBot) -> None:
    records = bot.get_cog("RecordsCog")
    assert records is not None
    for game in GAMES:
        for name in names_of(game):
            found = await records.game_choices(None, name)  # type: ignore[attr-defined]
            assert found[0].value == game.id, name  # first; a name inside another's (40k, 40k2) may follow
    # The fixed game choices (help, rosters) show each game's command, so typing it finds the game.
    payloads = {command.name: command.to_dict(bot.tree) for command in bot.tree.get_commands()}

    def game_choices(payload: dict[str, Any]) -> list[list[dict[str, Any]]]:
        found = []
        for option in payload.get("options", []):
            if option["name"] == "game" and option.get("choices"):
                found.append(option["choices"])
            found += game_choices(option)
        return found

    lists = game_choices(payloads["help"]) + game_choices(payloads["roster"])
    assert lists
    for choices in lists:
        for game in GAMES:
            (label,) = [choice["name"] for choice in choices if choice["value"] == game.id]
            command = game.command if COMMANDS[game.command] == 1 else f"{game.command} {game.id}"
            assert command in label and game.id in label
    # /odds has one subcommand per game id: each says the command it is fought with (/odds boltaction: /closequarters).
    odds_commands = {sub["name"]: sub for sub in payloads["odds"]["options"]}
    for game in GAMES:
        command = game.command if COMMANDS[game.command] == 1 else f"{game.command} {game.id}"
        assert f"(/{command})" in odds_commands[game.id]["description"]


def test_no_game_may_take_another_games_command_as_a_name() -> None:
    class Impostor(Game):
        id = "impostor"
        aliases = ("closequarters",)  # Bolt Action's command
        title = summary = docs_page = spec_shape = example_attacker = example_defender = "x"
        command = "impostor"

        def parse_side(self, text: str) -> Any:
            return text

        def format_side(self, side: Any) -> str:
            return str(side)

        def resolve_sides(self, attacker: Any, defender: Any, options: Any, dice: Any) -> Any:
            raise NotImplementedError

    with pytest.raises(ValueError, match="closequarters"):
        register(Impostor())
    assert get_game("closequarters").id == "boltaction"
    with pytest.raises(UnknownGameError):
        get_game("impostor")  # refused before anything was kept
