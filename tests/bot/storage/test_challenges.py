"""Challenges on both backends (issue 24): one resolves exactly once into a record that keeps its commitment and
salt, and `verify` (bot/verification.py) checks the commitment besides the re-run, naming what was tampered with."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from alembic import command
from sqlalchemy import text

from bot.access import OPERATOR
from bot.challenges.commitment import commitment, draw_salt, draw_seed
from bot.data import catalogue
from bot.storage import Store
from bot.storage.challenges import ChallengeClosed, StoredChallenge
from bot.storage.db import alembic_config, create_engine, now
from bot.verification import Verdict, verify
from rules_core import get_game, resolve
from rules_core.report import Report

GAME = get_game("40k")


async def open_challenge(store: Store, *, minutes: float = 15) -> StoredChallenge:
    seed, salt = draw_seed(), draw_salt()
    inputs = {"attacker": GAME.example_attacker, "defender": GAME.example_defender, "options": {}}
    return await store.challenges.create(
        game=GAME.id, kind=GAME.command, inputs=inputs, seed=seed, salt=salt, commitment=commitment(seed, salt),
        challenger_id="local", expires_at=now() + timedelta(minutes=minutes),
    )  # fmt: skip


async def resolved(store: Store) -> tuple[StoredChallenge, int]:
    challenge = await open_challenge(store)
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=challenge.seed)
    agreed = {"challenge_id": challenge.id, "commitment": challenge.commitment, "inputs": challenge.inputs}
    record_id = await store.challenges.resolve(challenge, report, agreed=agreed, requested_by="local")
    return challenge, record_id


async def test_a_challenge_resolves_once_into_a_record_with_its_commitment(store: Store) -> None:
    challenge, record_id = await resolved(store)
    again = await store.challenges.get(challenge.id)
    assert again is not None and again.status == "resolved" and again.record_id == record_id
    assert again.opponent_ok_version == again.inputs_version == 1
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.commitment == challenge.commitment and stored.salt == challenge.salt
    assert stored.report.seed == challenge.seed
    assert json.loads(stored.agreed_json or "{}")["challenge_id"] == challenge.id
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=challenge.seed)
    with pytest.raises(ChallengeClosed):
        await store.challenges.resolve(challenge, report, agreed={}, requested_by="local")
    verification = verify(stored)
    assert verification.verdict is Verdict.IDENTICAL
    assert challenge.commitment in verification.message


async def test_an_expired_challenge_does_not_resolve(store: Store) -> None:
    challenge = await open_challenge(store, minutes=-1)
    assert challenge.expired()
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=challenge.seed)
    with pytest.raises(ChallengeClosed):
        await store.challenges.resolve(challenge, report, agreed={}, requested_by="local")
    assert await store.challenges.expire(challenge.id)
    again = await store.challenges.get(challenge.id)
    assert again is not None and again.status == "expired" and again.record_id is None


async def test_verify_names_a_tampered_seed(store: Store) -> None:
    """A favourable seed put in afterwards, its whole report re-rolled so the re-run matches: only the commitment
    tells."""
    _, record_id = await resolved(store)
    stored = await store.records.get(record_id, actor=OPERATOR)
    other = (stored.report.seed + 1) % 2**53
    forged = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=other)
    async with store.engine.begin() as connection:
        await connection.execute(
            text("UPDATE combat_records SET seed = :seed, report_json = :report WHERE id = :id"),
            {"seed": other, "report": forged.to_json(indent=None), "id": record_id},
        )
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert "re-runs identically but does NOT match the dice committed" in verification.message
    assert any(line.startswith(f"the seed: SHA-256 of seed {other}") for line in verification.differences)


async def test_verify_names_a_tampered_commitment(store: Store) -> None:
    _, record_id = await resolved(store)
    async with store.engine.begin() as connection:
        await connection.execute(
            text("UPDATE combat_records SET commitment = :c WHERE id = :id"), {"c": "ab" * 32, "id": record_id}
        )
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert any(line.startswith(f"the commitment: the record's {'ab' * 32}") for line in verification.differences)


async def test_verify_names_a_seed_column_edited_alone(store: Store) -> None:
    _, record_id = await resolved(store)
    async with store.engine.begin() as connection:
        await connection.execute(text("UPDATE combat_records SET seed = seed + 1 WHERE id = :id"), {"id": record_id})
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert any("the row's seed" in line for line in verification.differences)


async def test_records_from_before_0009_keep_verifying(empty_url: str) -> None:
    """Migration 0009 adds nullable columns: a record stored at 0008 has no commitment and verifies as before."""
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=42)
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0008"))
            await connection.execute(
                text(
                    "INSERT INTO combat_records (game, attacker_spec, defender_spec, options_json, seed, "
                    "engine_version, report_json, outcome, winner, requested_by, private, created_at, slug) "
                    "VALUES (:game, 'a', 'd', '{}', 42, :engine, :report, 'x', 'attacker', 'local', false, "
                    "CURRENT_TIMESTAMP, 'old-slug')"
                ),
                {"game": GAME.id, "engine": report.engine_version, "report": report.to_json(indent=None)},
            )
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
    finally:
        await engine.dispose()
    store = await Store.open(empty_url)
    try:
        (summary,) = await store.records.history(actor=OPERATOR)
        stored = await store.records.get(summary.id, actor=OPERATOR)
        assert stored.commitment is None and stored.salt is None and stored.agreed_json is None
        verification = verify(stored)
        assert verification.verdict is Verdict.IDENTICAL and "commitment" not in verification.message
    finally:
        await store.close()


# --- the Discord flow's changes (issue 24, part A): each a single compare-and-set --------------------------------


def report_of(challenge: StoredChallenge) -> Report:
    inputs = challenge.inputs
    return resolve(catalogue().game(GAME), inputs["attacker"], inputs["defender"], seed=challenge.seed)


async def test_the_message_id_is_set_once(store: Store) -> None:
    challenge = await open_challenge(store)
    assert await store.challenges.set_message(challenge.id, "111")
    assert not await store.challenges.set_message(challenge.id, "222")
    again = await store.challenges.get(challenge.id)
    assert again is not None and again.message_id == "111"


async def test_a_change_moves_the_version_and_needs_the_challenger_again(store: Store) -> None:
    challenge = await open_challenge(store)
    assert challenge.accepted_by("challenger") and not challenge.accepted_by("opponent")
    inputs = dict(challenge.inputs, defender="5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+")
    changed = await store.challenges.change(challenge, inputs)
    assert changed.inputs_version == 2 and changed.inputs == inputs
    assert changed.accepted_by("opponent") and not changed.accepted_by("challenger")
    assert changed.challenger_ok_at is None and changed.opponent_ok_at is not None
    # A second change, or an acceptance, made from version 1 loses: only one change from a version wins.
    with pytest.raises(ChallengeClosed):
        await store.challenges.change(challenge, dict(inputs, defender=GAME.example_defender))
    with pytest.raises(ChallengeClosed):
        await store.challenges.resolve(challenge, report_of(challenge), agreed={}, requested_by="local")
    # The opponent accepted version 2 by giving it: the challenger's acceptance is the last, and resolves it.
    record_id = await store.challenges.resolve(changed, report_of(changed), agreed={"v": 2}, requested_by="local",
                                               by="challenger")  # fmt: skip
    done = await store.challenges.get(challenge.id)
    assert done is not None and done.status == "resolved" and done.record_id == record_id
    assert done.challenger_ok_version == done.opponent_ok_version == 2
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.report.seed == challenge.seed
    assert json.loads(stored.agreed_json or "{}") == {"v": 2}


async def test_a_second_change_goes_on_from_the_first(
    store: Store,
) -> None:
    challenge = await open_challenge(store)
    first = await store.challenges.change(
        challenge, dict(challenge.inputs, defender="5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+")
    )
    second = await store.challenges.change(
        first, dict(challenge.inputs, defender="6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+")
    )
    assert second.inputs_version == 3 and second.accepted_by("opponent") and not second.accepted_by("challenger")


async def test_the_first_acceptance_is_refused_once_the_other_accepted_so_the_last_resolves(store: Store) -> None:
    """Two acceptances racing: the first one's compare-and-set wins, the second is refused (and, read again, now
    resolves): neither may stop short of the resolution."""
    challenge = await open_challenge(store)
    changed = await store.challenges.change(challenge, dict(challenge.inputs, defender=GAME.example_defender))
    # The opponent accepted version 2 already: the challenger's plain acceptance would leave it unresolved.
    with pytest.raises(ChallengeClosed):
        await store.challenges.accept(changed, "challenger")
    # With the opponent's acceptance cleared (only a row edit does that), a plain acceptance is taken.
    async with store.engine.begin() as connection:
        await connection.execute(text("UPDATE challenges SET opponent_ok_version = NULL WHERE id = :id"),
                                 {"id": challenge.id})  # fmt: skip
    fresh = await store.challenges.get(challenge.id)
    assert fresh is not None
    accepted = await store.challenges.accept(fresh, "challenger")
    assert accepted.accepted_by("challenger") and accepted.status == "open"
    with pytest.raises(ChallengeClosed):  # the opponent's plain acceptance now would be the last: refused
        await store.challenges.accept(accepted, "opponent")
    with pytest.raises(ChallengeClosed):  # resolving by the challenger needs the opponent's acceptance
        await store.challenges.resolve(accepted, report_of(accepted), agreed={}, requested_by="local",
                                       by="challenger")  # fmt: skip
    await store.challenges.resolve(accepted, report_of(accepted), agreed={}, requested_by="local")


async def test_decline_and_cancel_only_while_open(store: Store) -> None:
    declined = await open_challenge(store)
    assert await store.challenges.decline(declined.id)
    assert not await store.challenges.decline(declined.id) and not await store.challenges.cancel(declined.id)
    with pytest.raises(ChallengeClosed):
        await store.challenges.resolve(declined, report_of(declined), agreed={}, requested_by="local")
    with pytest.raises(ChallengeClosed):
        await store.challenges.change(declined, declined.inputs)
    cancelled = await open_challenge(store)
    assert await store.challenges.cancel(cancelled.id)
    assert not await store.challenges.decline(cancelled.id)
    late = await open_challenge(store, minutes=-1)
    assert not await store.challenges.decline(late.id) and not await store.challenges.cancel(late.id)
    with pytest.raises(ChallengeClosed):
        await store.challenges.change(late, late.inputs)
    states = {c.id: c.status for c in [await store.challenges.get(x.id) for x in (declined, cancelled, late)] if c}
    assert states == {declined.id: "declined", cancelled.id: "cancelled", late.id: "open"}


async def test_concurrent_last_acceptances_resolve_once(store: Store) -> None:
    """The same last acceptance pressed in two processes at once (two stores on one database): one record."""
    challenge = await open_challenge(store)
    other = await Store.open(store.url)
    try:
        outcomes = await asyncio.gather(
            *(s.challenges.resolve(challenge, report_of(challenge), agreed={}, requested_by="local")
              for s in (store, other, store, other)),
            return_exceptions=True,
        )  # fmt: skip
    finally:
        await other.close()
    records = [o for o in outcomes if isinstance(o, int)]
    assert len(records) == 1 and all(isinstance(o, ChallengeClosed) for o in outcomes if not isinstance(o, int))
