"""What both front ends do with a challenge (issue 24), with no front end's words: its inputs as the referee read
them, the opponent's new side, the resolution from the stored inputs and the committed seed, and the agreement a
record keeps.

A challenge's inputs are a plain dict, stored as they are shown and as they are resolved:
``attacker`` and ``defender`` (the sides' text), ``options`` (the options given, then the house rules for the
rest), ``house_rules`` (the names of the options that came from house rules) and, after the opponent named one of
their own rosters, ``defender_reference`` (the ``@name`` they gave, offered again when they change their side once
more). Discord stores the canonical text of each side (what the engine wrote in the report: every unit, count and
profile exactly as read); the terminal stores the text as given, @references expanded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.data import catalogue
from bot.rosters import expand, split_reference
from bot.storage.challenges import StoredChallenge
from rules_core import parse_given, resolve
from rules_core.registry import Game
from rules_core.report import Report
from rules_core.spec import reading_canonical

Lookup = Callable[[str, str], Awaitable[Any]]  # (game id, roster name) -> the saved roster, as bot/rosters.py takes


def resolution(game_id: str, inputs: Mapping[str, Any], seed: int, *, canonical: bool = True) -> Report:
    """The combat of a challenge's ``inputs`` rolled with ``seed``. ``canonical``: the sides are the engine's own
    canonical text (a stored challenge's), read with no character limit as a record's inputs are; else they are
    what a player gave and the player's limits apply."""
    game = catalogue().game(game_id)
    options = dict(inputs.get("options") or {})
    if not canonical:
        return resolve(game, inputs["attacker"], inputs["defender"], seed=seed, **options)
    with reading_canonical():
        return resolve(game, inputs["attacker"], inputs["defender"], seed=seed, **options)


def inputs_as_read(report: Report, options: Mapping[str, Any], house_rules: Sequence[str]) -> dict[str, Any]:
    """A challenge's inputs from a command's first reading (``report``, rolled with the challenge's seed and not
    shown): both sides as the engine wrote them, the options given and from house rules, and the house rules'
    names."""
    return {"attacker": report.inputs.attacker, "defender": report.inputs.defender, "options": dict(options),
            "house_rules": list(house_rules)}  # fmt: skip


async def changed_defender(
    game: Game, challenge: StoredChallenge, text: str, lookup: Lookup
) -> dict[str, Any]:  # fmt: skip
    """The challenge's inputs with the opponent's side (the defender) replaced by ``text``: inline units, or
    ``@name`` / ``@name/unit`` looked up by ``lookup`` (the opponent's rosters, then the server's). The side is read
    as any side a player types (their limits; an error marked in their text), then the whole combat with the
    challenge's options and seed, so a side the options do not fit is refused now, not when both have agreed."""
    given = " ".join(text.split())
    expanded = await expand(given, game.id, lookup)
    bound = catalogue().game(game)
    parse_given(bound, expanded, "defender")
    with reading_canonical():  # the attacker is stored canonical, maybe longer than a player may type
        report = resolve(bound, challenge.inputs["attacker"], expanded, seed=challenge.seed,
                         **dict(challenge.inputs.get("options") or {}))  # fmt: skip
    inputs = {key: value for key, value in challenge.inputs.items() if key != "defender_reference"}
    inputs["defender"] = report.inputs.defender
    if split_reference(given) is not None:
        inputs["defender_reference"] = given
    return inputs


def agreement(challenge: StoredChallenge, *, last: str, at: datetime, by: str) -> dict[str, Any]:
    """What a record resolved from ``challenge`` keeps of its agreement (``agreed_json``): the challenge, its
    commitment, the inputs both accepted at their version, who accepted when, and the front end (``by``: terminal
    or discord). ``last``: the player whose acceptance, at ``at``, resolves it (challenger or opponent)."""
    challenger_ok = at if last == "challenger" else challenge.challenger_ok_at
    opponent_ok = at if last == "opponent" else challenge.opponent_ok_at
    return {
        "challenge_id": challenge.id, "commitment": challenge.commitment, "inputs": challenge.inputs,
        "inputs_version": challenge.inputs_version, "challenger": challenge.challenger_id,
        "challenger_ok_at": _iso(challenger_ok), "opponent": challenge.opponent_id,
        "opponent_ok_at": _iso(opponent_ok), "by": by,
    }  # fmt: skip


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


__all__ = ["agreement", "changed_defender", "inputs_as_read", "resolution"]
