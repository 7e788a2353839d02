"""`referee challenge` and `referee accept`: a combat both players agree to, its dice committed in advance, for
play by email or two terminals (docs/challenges.md).

``referee challenge GAME --attacker ... --defender ... --out FILE`` reads the inputs as the game's own command
does, draws the seed and a salt, stores an open challenge (seed and salt stay in the local database) and writes
FILE: the challenge's id, the game, the inputs exactly as read, the commitment and when it expires.
``referee accept FILE`` resolves that challenge with the committed seed (once: not if resolved, expired or if the
file's inputs differ from the stored ones), records it with its commitment and salt, and prints the result and
the reveal.
"""

from __future__ import annotations

import json
import shlex
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from bot.access import LOCAL_USER
from bot.challenges.commitment import commitment, draw_salt, draw_seed, shell_check
from bot.challenges.service import agreement, resolution
from bot.cli.common import GameGroup, expand_references, opponent_name
from bot.cli.games import input_params
from bot.data import catalogue
from bot.recording import with_store, with_store_retrying
from bot.render.terminal import print_report
from bot.storage.challenges import ChallengeClosed, StoredChallenge
from bot.storage.db import now
from bot.storage.records import new_slug
from rules_core import RefereeError, all_games
from rules_core.registry import Game

FILE_KIND = "referee-challenge"
FILE_VERSION = 1
DEFAULT_MINUTES = 15
ACCEPT_EXAMPLE = "Example: referee accept challenge.json"


def _challenge_example(game: Game) -> str:
    return shlex.join(["referee", "challenge", game.id, "--attacker", game.example_attacker, "--defender",
                       game.example_defender, "--out", "challenge.json"])  # fmt: skip


def _inputs(game: Game, attacker: str, defender: str, raw: dict[str, Any]) -> dict[str, Any]:
    options = {name: value for name, value in raw.items() if value is not None}
    attacker, defender, options = expand_references(game, attacker, defender, options)
    return {"attacker": attacker, "defender": defender, "options": options, "house_rules": []}


def _challenge_command(game: Game) -> click.Command:
    def run(out: Path, opponent: str | None, expires_in: int, attacker: str, defender: str, **raw: Any) -> None:
        inputs = _inputs(game, attacker, defender, raw)
        seed, salt = draw_seed(), draw_salt()
        resolution(game.id, inputs, seed, canonical=False)  # read now: a mistake is told to the challenger
        committed = commitment(seed, salt)
        expires_at = now() + timedelta(minutes=expires_in)
        stored: StoredChallenge = with_store(
            lambda store: store.challenges.create(
                game=game.id,
                kind=game.command,
                inputs=inputs,
                seed=seed,
                salt=salt,
                commitment=committed,
                challenger_id=LOCAL_USER,
                opponent_id=opponent_name(opponent),
                expires_at=expires_at,
            )
        )
        document = {
            "kind": FILE_KIND, "version": FILE_VERSION, "challenge": stored.id, "game": game.id, "inputs": inputs,
            "commitment": committed, "expires_at": expires_at.isoformat(timespec="seconds"),
        }  # fmt: skip
        out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        click.echo(f"Challenge #{stored.id} ({game.title}) written to {out}.")
        click.echo(f"Commitment: {committed}")
        click.echo(f"It expires at {expires_at:%Y-%m-%d %H:%M} UTC.")
        click.echo(f"Send {out} to your opponent now, and this commitment by another way (a message): the dice are "
                   "already drawn, and the commitment proves they were before your opponent agreed. Once they "
                   f"agree to the sides in it, 'referee accept {out}' here resolves the combat and reveals the "
                   "seed.")  # fmt: skip

    params: list[click.Parameter] = [
        *input_params(game),
        click.Option(["--out", "out"], required=True, type=click.Path(dir_okay=False, path_type=Path),
                     metavar="FILE", help="Where to write the challenge file for your opponent."),
        click.Option(["--opponent"], default=None, metavar="NAME", help="Who you challenge, kept on the record."),
        click.Option(["--expires-in", "expires_in"], type=click.IntRange(1, 7 * 24 * 60), default=DEFAULT_MINUTES,
                     show_default=True, metavar="MINUTES", help="How long the challenge may be accepted."),
    ]  # fmt: skip
    return click.Command(
        game.id, callback=run, params=params, help=f"Challenge to a combat of {game.title}, its dice committed "
        "in advance.", epilog=f"Example: {_challenge_example(game)}", short_help=game.title,
    )  # fmt: skip


@click.group("challenge", cls=GameGroup)
def challenge_group() -> None:
    """Challenge to a combat both players agree to, its dice drawn and committed to in advance: writes a file for
    your opponent ('referee accept FILE' resolves it; referee docs challenges)."""


for _game in all_games():
    challenge_group.add_command(_challenge_command(_game))


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RefereeError(f"There is no file {str(path)!r}. {ACCEPT_EXAMPLE}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RefereeError(f"{str(path)!r} cannot be read ({error.__class__.__name__}). {ACCEPT_EXAMPLE}") from None
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if (
        not isinstance(document, dict)
        or document.get("kind") != FILE_KIND
        or not isinstance(document.get("challenge"), int)
        or not isinstance(document.get("inputs"), dict)
        or not isinstance(document.get("commitment"), str)
    ):
        raise RefereeError(f"{str(path)!r} is not a challenge file ('referee challenge GAME ... --out FILE' writes "
                           f"one). {ACCEPT_EXAMPLE}")  # fmt: skip
    return document


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def differences(document: dict[str, Any], stored: StoredChallenge) -> list[str]:
    """What the file says that the stored challenge does not: its game, its commitment, each input."""
    found = []
    if document.get("game") != stored.game:
        found.append(f"the game (file: {_shown(document.get('game'))}, challenge: {_shown(stored.game)})")
    if document["commitment"] != stored.commitment:
        found.append(f"the commitment (file: {document['commitment']}, challenge: {stored.commitment})")
    given: dict[str, Any] = document["inputs"]
    for key in ("attacker", "defender", "house_rules"):
        if given.get(key) != stored.inputs.get(key):
            found.append(f"the {key.replace('_', ' ')} (file: {_shown(given.get(key))}, challenge: "
                         f"{_shown(stored.inputs.get(key))})")  # fmt: skip
    options = given.get("options")
    file_options: dict[str, Any] = options if isinstance(options, dict) else {}
    stored_options: dict[str, Any] = stored.inputs.get("options", {})
    for name in sorted({*file_options, *stored_options}):
        if file_options.get(name) != stored_options.get(name):
            found.append(f"--{name.replace('_', '-')} (file: {_shown(file_options.get(name))}, challenge: "
                         f"{_shown(stored_options.get(name))})")  # fmt: skip
    return found


@click.command("accept")
@click.argument("file", type=click.Path(path_type=Path))
def accept_command(file: Path) -> None:
    """Accept a challenge from its file: resolve it with the dice committed in advance, record it and reveal the
    seed and salt that prove it."""
    document = _read_file(file)
    number: int = document["challenge"]
    write_key = new_slug()  # the record's, made before the first attempt: a retry finds what that one wrote

    async def work(store: Any, retried: bool) -> tuple[StoredChallenge, int]:
        if retried and (written := await store.records.find_written([write_key])):
            return await store.challenges.get(number), written[write_key]  # resolved, the acknowledgement lost
        stored: StoredChallenge | None = await store.challenges.get(number)
        if stored is None:
            raise RefereeError(f"There is no challenge #{number} in this database: accept it where it was made "
                               f"(the same DATABASE_URL or referee.db). {ACCEPT_EXAMPLE}")  # fmt: skip
        _refuse_closed(stored, file)
        if found := differences(document, stored):
            raise RefereeError(f"{str(file)!r} differs from challenge #{number} as it was made: "
                               f"{'; '.join(found)}. Accept the challenger's own file unchanged, or ask for a new "
                               "challenge.")  # fmt: skip
        report = resolution(stored.game, stored.inputs, stored.seed)
        moment = now()
        agreed = agreement(stored, last="opponent", at=moment, by="terminal")
        try:
            record_id = await store.challenges.resolve(stored, report, agreed=agreed, requested_by=LOCAL_USER,
                                                       opponent=stored.opponent_id, at=moment,
                                                       write_key=write_key)  # fmt: skip
        except ChallengeClosed:
            again = await store.challenges.get(number)
            _refuse_closed(again or stored, file, moment)
            raise RefereeError(f"Challenge #{number} changed while it was being accepted: try again. "
                               f"{ACCEPT_EXAMPLE}") from None  # fmt: skip
        return stored, record_id

    stored, record_id = with_store_retrying(work)  # a few seconds through a database restart
    report = resolution(stored.game, stored.inputs, stored.seed)
    print_report(report, Console(highlight=False))
    click.echo("")
    click.echo(f"Challenge #{stored.id} resolved and recorded as #{record_id}.")
    click.echo(f"The dice were committed in advance. Seed: {stored.seed}  Salt: {stored.salt}")
    click.echo(f"Commitment: {stored.commitment} (SHA-256 of 'referee-commit-v1', a zero byte, the salt's 32 bytes "
               "and the seed as 8 bytes, big-endian).")  # fmt: skip
    click.echo(f"Check it: 'referee verify {record_id}', or with any SHA-256 tool, e.g.:")
    click.echo(f"  {shell_check(stored.seed, stored.salt)}")


def _refuse_closed(stored: StoredChallenge, file: Path, at: datetime | None = None) -> None:
    """A one-line refusal for a challenge that can no longer be accepted."""
    number = stored.id
    if stored.status == "resolved":
        shown = f" as record #{stored.record_id}: 'referee replay {stored.record_id}' shows it" if stored.record_id \
            else ""  # fmt: skip
        raise RefereeError(f"Challenge #{number} was already accepted and resolved{shown}.")
    if stored.expired(at):
        raise RefereeError(f"Challenge #{number} expired at {stored.expires_at:%Y-%m-%d %H:%M} UTC: ask for a new "
                           f"one, e.g. {_challenge_example(catalogue().game(stored.game))}")  # fmt: skip
    if stored.status != "open":
        raise RefereeError(f"Challenge #{number} was {stored.status}: ask for a new one. Example: "
                           f"{_challenge_example(catalogue().game(stored.game))}")  # fmt: skip
    del file
