"""Continuing a combat that goes on: the record's checks, then its game's next round (``Game.next_round``), shared
by the CLI and the bot."""

from __future__ import annotations

from typing import Any

from bot.storage.records import StoredCombat
from rules_core import RefereeError
from rules_core.registry import all_games, games_named

# How a player gives positions, for every game whose combats go on (the CLI's option help).
POSITIONS_HELP = " ".join(game.positions_help for game in all_games() if game.continues)


def next_round(
    stored: StoredCombat,
    continued_by: int | None,  # the continuing record's id; 0: continued by one the player may not see
    *,
    attacker_positions: str | None = None,
    defender_positions: str | None = None,
) -> tuple[str, str, dict[str, Any], str]:
    """(attacker, defender, options, positions) of the next round, or a RefereeError saying why there is none.

    The record must be of a game whose combats go on (``Game.continues``), hold a combat that goes on, be neither
    void nor continued already; its game then says the next round's inputs (positions given per side, or None for
    the game's default), and ``positions`` says which applied, in words for either front end.
    """
    report = stored.report
    record_id = stored.id
    going_on = [ev for step in report.steps for ev in step.events if ev.kind == "continues"]
    found = games_named(report.game)
    game = found[0] if len(found) == 1 and found[0].continues else None
    if game is None:
        which = " and ".join(other.continues for other in all_games() if other.continues)
        raise RefereeError(
            f"Record #{record_id} is a {report.game} combat; only {which} carry on into later rounds.",
            token=str(record_id),
        )
    if not going_on:
        raise RefereeError(
            f"Record #{record_id}'s combat is over ({report.result.outcome.replace('_', ' ')}): there is no next "
            "round.",
            token=str(record_id),
        )
    if stored.voided:
        raise RefereeError(f"Record #{record_id} is void: its combat cannot go on.", token=str(record_id))
    if continued_by == 0:  # by a record this player may not see: its id is not theirs to learn
        raise RefereeError(f"Record #{record_id}'s combat has already been continued.", token=str(record_id))
    if continued_by is not None:
        raise RefereeError(
            f"Record #{record_id}'s combat has already been continued as #{continued_by}: continue #{continued_by} "
            "instead.",
            token=str(record_id),
        )  # no example: a whole command differs per front end, and the sentence says what to do
    following = game.next_round(report, attacker_positions=attacker_positions, defender_positions=defender_positions)
    return following.attacker, following.defender, following.options, following.positions
