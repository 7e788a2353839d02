"""Stored combats from the terminal: ``referee history``, ``replay``, ``verify``, ``void``, ``annotate``, and
``referee assault continue`` (the next round of a stored combat)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from bot.access import OPERATOR
from bot.cli.common import parse_seed, show_and_record
from bot.cli.wrapping import print_wrapped
from bot.continuing import POSITIONS_HELP, next_round
from bot.data import catalogue
from bot.recording import with_store, with_store_retrying
from bot.render.summary import house_rules_text
from bot.render.terminal import print_report
from bot.storage.db import now
from bot.verification import Verdict, verify
from rules_core import RefereeError, get_game, resolve
from rules_core.spec import reading_canonical


@click.command("history")
@click.option("--game", default=None, help="Only this game (id or alias).")
@click.option("--user", "requested_by", default=None, help="Only records requested by this user id ('local' offline).")
@click.option("--guild", default=None, help="Only records of this Discord guild id.")
@click.option("--before", type=int, default=None, help="Page back: records older than this id.")
@click.option("--limit", type=click.IntRange(1, 200), default=20, show_default=True)
@click.option("--hide-voided", is_flag=True, help="Leave voided records out.")
def history_command(  # noqa: PLR0917 (click passes every option positionally by name)
    game: str | None, requested_by: str | None, guild: str | None, before: int | None, limit: int, hide_voided: bool
) -> None:
    """Recent combat records, newest first."""
    game_id = get_game(game).id if game else None
    rows = with_store(
        lambda store: store.records.history(
            actor=OPERATOR,
            game=game_id,
            requested_by=requested_by,
            guild_id=guild,
            before_id=before,
            limit=limit,
            include_voided=not hide_voided,
        )
    )
    if not rows:
        click.echo("No combat records match.")
        return
    # Two lines a record, wrapped at the terminal's width (80 columns included) under their own start: no column
    # is cut, so a Discord user's id (18 digits) and the time stay whole.
    console = Console(highlight=False)
    for row in rows:
        won = {"attacker": "the attacker won", "defender": "the defender won", "draw": "a draw"}.get(row.winner, "")
        result = ", ".join(part for part in (row.outcome.replace("_", " "), won) if part)
        head = Text.assemble((f"#{row.id}", "bold"), f"  {row.created_at:%Y-%m-%d %H:%M} UTC  {row.game}  by "
                             f"{row.requested_by}")  # fmt: skip
        if row.voided:
            head.append("  VOID", style="bold")
        print_wrapped(console, head, hanging=4)
        print_wrapped(console, Text(f"    {row.attacker} v {row.defender}: {result}"))


def _load(record_id: int) -> Any:
    return with_store(lambda store: store.records.get(record_id, actor=OPERATOR))


@click.command("replay")
@click.argument("record_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the stored report as JSON.")
def replay_command(record_id: int, as_json: bool) -> None:
    """Show a stored combat again, exactly as it was resolved."""
    stored = _load(record_id)
    if as_json:
        click.echo(stored.report.to_json())
        return
    console = Console(highlight=False)
    print_report(stored.report, console)
    console.print(f"Record #{stored.id}, {stored.created_at:%Y-%m-%d %H:%M} UTC, requested by {stored.requested_by}.")
    if house := house_rules_text(stored.report.inputs.options, stored.house_rules):
        # Which options came from its Discord server's house rules, as they were when it was resolved.
        print_wrapped(console, Text(f"{house} (its server's house rules when it was resolved)"))
    for note in stored.history:
        label = "VOIDED" if note.kind == "void" else "Note"
        print_wrapped(console, Text(f"{label} by {note.actor} at {note.at:%Y-%m-%d %H:%M} UTC: {note.reason}"))


@click.command("verify")
@click.argument("record_id", type=int)
def verify_command(record_id: int) -> None:
    """Re-run a stored combat from its seed and inputs and check it gives the very same report."""
    verification = verify(_load(record_id))
    click.echo(verification.message)
    for difference in verification.differences:
        click.echo(f"  - {difference}")
    if verification.verdict is not Verdict.IDENTICAL:
        sys.exit(1)


def _note(record_id: int, kind: str, reason: str) -> None:
    text = " ".join(reason.split())
    if not text:
        raise click.UsageError("Give a reason: what was wrong, or what the note says.")
    moment = now()  # made before the first attempt: a retry finds the note that one wrote (its acknowledgement lost)

    async def attempt(store: Any, retried: bool) -> None:
        if retried:
            history = (await store.records.get(record_id, actor=OPERATOR)).history
            if any(n.kind == kind and n.actor == OPERATOR.user and n.reason == text and n.at == moment
                   for n in history):  # fmt: skip
                return
        # Whole or not at all: the store refuses a reason over its limit (and a second void) with the reason why.
        await store.records.add_note(record_id, kind, actor=OPERATOR, reason=text, at=moment)

    with_store_retrying(attempt)  # a few seconds through a database restart, then its one line


@click.command("void")
@click.argument("record_id", type=int)
@click.option("--reason", required=True, help="Why the combat does not count (kept in its history).")
def void_command(record_id: int, reason: str) -> None:
    """Void a mistaken combat: it stays on record, marked void, with who, when and why."""
    _note(record_id, "void", reason)
    click.echo(f"Record #{record_id} is void. 'referee replay {record_id}' shows it with its history.")


@click.command("annotate")
@click.argument("record_id", type=int)
@click.option("--note", "text", required=True, help="The note to add to the record's history.")
def annotate_command(record_id: int, text: str) -> None:
    """Add a note to a combat record (the record itself never changes)."""
    _note(record_id, "note", text)
    click.echo(f"Note added to record #{record_id}.")


def agreed_elsewhere(record_id: int, agreed_json: str) -> str:
    """Why the terminal does not roll an agreed record's next round (both players must agree it again), and what
    to do instead, where the record was agreed."""
    try:
        agreed = json.loads(agreed_json)
    except ValueError:
        agreed = {}
    where = agreed.get("by") if isinstance(agreed, dict) else None
    instead = (
        "its players continue it in Discord, where it was agreed, and the other player accepts the next round"
        if where == "discord"
        else f"challenge its survivors with 'referee challenge' ('referee replay {record_id}' shows them), and "
        "the other player accepts with 'referee accept'"
    )
    return (f"Record #{record_id} was agreed by both of its players, so its next round must be agreed by both "
            f"again: {instead}. Nothing was rolled.")  # fmt: skip


@click.command("continue")
@click.argument("record_id", type=int)
@click.option("--seed", default=None, metavar="N", help="Replay with this seed (default: a fresh one).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--attacker-positions", default=None, metavar="TEXT", help=POSITIONS_HELP)
@click.option("--defender-positions", default=None, metavar="TEXT", help=POSITIONS_HELP)
def assault_continue(
    record_id: int, seed: str | None, as_json: bool, attacker_positions: str | None, defender_positions: str | None
) -> None:
    """Fight the next round of a 40K combat that was drawn or whose loser held (the survivors, no charge bonus).

    Each unit keeps last round's models in base contact and within 2" (capped by the models left) unless you
    give its positions, e.g. --attacker-positions "Ork Boy=6:4 | Nob=1".
    """

    async def load(store: Any) -> tuple[Any, int | None]:
        return await store.records.get(record_id, actor=OPERATOR), await store.records.continued_by(
            record_id, actor=OPERATOR
        )

    stored, continued = with_store(load)
    if stored.agreed_json is not None:
        raise RefereeError(agreed_elsewhere(stored.id, stored.agreed_json), token=str(record_id))
    # The stored combat and its survivors are in the canonical form, which may be longer than what the player gave.
    with reading_canonical():
        attacker, defender, options, positions = next_round(
            stored, continued, attacker_positions=attacker_positions, defender_positions=defender_positions
        )
        next_report = resolve(catalogue().game(stored.report.game), attacker, defender, seed=parse_seed(seed),
                              **options)  # fmt: skip
    click.echo(positions, err=True)
    # The record's options carry on, and so does which of them came from its server's house rules.
    show_and_record(next_report, as_json, continues=record_id, house_rules=stored.house_rules)
