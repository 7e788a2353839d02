"""The property issue 24 asks for, through the store (SQLite): for any inputs of any registered game, a challenge
made, resolved through `store.challenges.resolve` and loaded back through the store reveals a seed and salt that hash
to its commitment, and the stored result re-runs identically (`verify`: identical, checked against the challenge as
it was made); a league counts it as agreed.

Inputs: each game's example sides (40K's generated ones too, half the time) with its options drawn from their declared
ranges and choices (free-text options left at their example); a combination the game refuses is not a challenge
anyone could make, and is skipped. One store is reused across the examples."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.access import OPERATOR
from bot.challenges.commitment import commitment, matches
from bot.challenges.service import agreement, inputs_as_read, resolution
from bot.storage import Store
from bot.storage.db import now
from bot.verification import Verdict, verify
from rules_core import RefereeError, all_games
from rules_core.dice import MAX_SEED
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import Game
from tests.rules_core.test_40k_properties import sides

GAMES = all_games()
INT_SPAN, FLOAT_SPAN = 12, 24  # how far above its minimum a number is drawn: combats stay short enough for seconds


def values(spec: OptionSpec) -> st.SearchStrategy[Any] | None:
    """A value of the option from its declared range or choices (None: free text, left alone)."""
    if spec.type is OptionType.BOOL:
        return st.booleans()
    if spec.type is OptionType.CHOICE:
        return st.sampled_from(spec.choices)
    low = spec.minimum or 0
    if spec.type is OptionType.INT:
        return st.integers(int(low), int(min(spec.maximum if spec.maximum is not None else low + INT_SPAN,
                                              low + INT_SPAN)))  # fmt: skip
    if spec.type is OptionType.FLOAT:
        high = min(spec.maximum if spec.maximum is not None else low + FLOAT_SPAN, low + FLOAT_SPAN)
        return st.integers(int(low * 2), int(high * 2)).map(lambda half: half / 2)
    return None


@st.composite
def cases(draw: st.DrawFn) -> tuple[Game, dict[str, Any], int, str]:
    """A game, the inputs a player gives (sides and options), a seed and a salt."""
    game = draw(st.sampled_from(GAMES))
    options: dict[str, Any] = dict(game.example_options)
    for spec in game.options:
        strategy = values(spec)
        if strategy is not None and draw(st.booleans()):
            options[spec.name] = draw(strategy)
    attacker, defender = game.example_attacker, game.example_defender
    if game.id == "40k" and draw(st.booleans()):
        attacker, defender = draw(sides()), draw(sides())
    seed = draw(st.integers(0, MAX_SEED))
    salt = draw(st.binary(min_size=32, max_size=32)).hex()
    return game, {"attacker": attacker, "defender": defender, "options": options}, seed, salt


@pytest.fixture
def reused(tmp_path: Path) -> Iterator[tuple[asyncio.Runner, Store]]:
    """One event loop and one store for every example of a test."""
    with asyncio.Runner() as runner:
        store = runner.run(Store.open(f"sqlite+aiosqlite:///{tmp_path / 'property.db'}"))
        try:
            yield runner, store
        finally:
            runner.run(store.close())


async def made_resolved_and_loaded(store: Store, game: Game, given: dict[str, Any], seed: int, salt: str) -> None:
    try:
        first = resolution(game.id, given, seed, canonical=False)  # the command's reading, as Discord reads it
    except RefereeError:
        assume(False)  # not a challenge anyone could make: the game refuses these inputs
        return
    inputs = inputs_as_read(first, given["options"], [])
    committed = commitment(seed, salt)
    challenge = await store.challenges.create(
        game=game.id, kind=game.command, inputs=inputs, seed=seed, salt=salt, commitment=committed,
        challenger_id="111", opponent_id="222", guild_id="g1", expires_at=now() + timedelta(minutes=15),
    )  # fmt: skip
    report = resolution(challenge.game, challenge.inputs, challenge.seed)
    moment = now()
    record_id = await store.challenges.resolve(
        challenge, report, agreed=agreement(challenge, last="opponent", at=moment, by="discord"),
        requested_by="111", opponent="222", at=moment,
    )  # fmt: skip
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.report_json == report.to_json(indent=None)
    assert stored.report.seed == seed and stored.commitment == committed and stored.salt == salt
    assert matches(stored.report.seed, stored.salt, stored.commitment)
    verification = verify(stored)
    assert verification.verdict is Verdict.IDENTICAL, verification
    assert f"challenge #{challenge.id} holds the same seed, salt, commitment and sides" in verification.message
    assert record_id in await store.matches.agreements([record_id])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases())
def test_any_challenge_reveals_its_commitment_and_its_stored_result_reruns_identically(
    reused: tuple[asyncio.Runner, Store], case: tuple[Game, dict[str, Any], int, str]
) -> None:
    runner, store = reused
    runner.run(made_resolved_and_loaded(store, *case))
