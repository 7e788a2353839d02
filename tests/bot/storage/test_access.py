"""Who sees which combat, on both backends: the rule (bot/access.py) and its SQL form agree on every case, a
record nobody may see answers exactly like one that does not exist, and voiding follows the rule.

Every combination is tried: private or public, resolved in server g1, g2 or a direct message, asked for by u1 or
u2 with u2, u3 or nobody named as opponent; seen by each user, from each place, as a manager or not.
"""

from __future__ import annotations

import itertools

import pytest
from alembic import command
from sqlalchemy import text

from bot.access import OPERATOR, Actor, may_void_combat, sees_combat
from bot.storage import Store
from bot.storage.db import alembic_config, create_engine, current_revision, head_revision
from bot.storage.records import RecordNotFound, VoidNotAllowed
from tests.bot.storage.test_records import a_report

USERS = ("u1", "u2", "u3")
PLACES = (None, "g1", "g2")
CASES = [
    (private, guild, requester, opponent)
    for private, guild, requester, opponent in itertools.product(
        (True, False), PLACES, ("u1", "u2"), (None, "u2", "u3")
    )
    if opponent != requester
]
ACTORS = [
    Actor(user, guild=guild, manager=manager)
    for user, guild, manager in itertools.product(USERS, PLACES, (False, True))
    if guild is not None or not manager
]


def facts(case: tuple[bool, str | None, str, str | None]) -> dict[str, object]:
    private, guild, requester, opponent = case
    return {"private": private, "guild_id": guild, "requested_by": requester, "opponent": opponent}


async def test_the_rule_and_its_sql_agree_and_hidden_records_are_not_found(store: Store) -> None:
    report = a_report()
    ids = {}
    for case in CASES:
        private, guild, requester, opponent = case
        ids[case] = await store.records.add(report, requested_by=requester, opponent=opponent, guild_id=guild,
                                           private=private)  # fmt: skip
    assert len(await store.records.history(actor=OPERATOR, limit=200)) == len(CASES)
    for actor in ACTORS:
        expected = {ids[case] for case in CASES if sees_combat(actor, **facts(case))}  # type: ignore[arg-type]
        listed = {row.id for row in await store.records.history(actor=actor, limit=200)}
        assert listed == expected, actor
        for case, record_id in ids.items():
            if record_id in expected:
                assert (await store.records.get(record_id, actor=actor)).id == record_id
            else:
                with pytest.raises(RecordNotFound) as hidden:
                    await store.records.get(record_id, actor=actor)
                with pytest.raises(RecordNotFound) as missing:
                    await store.records.get(10_000 + record_id, actor=actor)
                # The same words as a record that does not exist (only the number differs).
                assert str(hidden.value).replace(str(record_id), "N") == str(missing.value).replace(
                    str(10_000 + record_id), "N"
                ), case


def test_the_rule_in_words() -> None:
    """The promises docs/privacy.md makes, one by one."""
    private_g1 = {"private": True, "guild_id": "g1", "requested_by": "u1", "opponent": "u2"}
    public_g1 = {**private_g1, "private": False}
    assert sees_combat(Actor("u2", guild="g2"), **private_g1)  # a private combat follows its players anywhere
    assert sees_combat(Actor("u1"), **private_g1)  # in direct messages too
    assert not sees_combat(Actor("u3", guild="g1", manager=True), **private_g1)  # not a manager's to see
    assert sees_combat(Actor("u3", guild="g1"), **public_g1)  # a public one: the members of its server
    assert not sees_combat(Actor("u1", guild="g2"), **public_g1)  # server data stays in its server
    assert not sees_combat(Actor("u1"), **public_g1)
    assert sees_combat(OPERATOR, **private_g1)  # the terminal owns the database
    dm = {**public_g1, "guild_id": None}
    assert sees_combat(Actor("u2", guild="g2"), **dm) and not sees_combat(Actor("u3"), **dm)
    voiding = {"guild_id": "g1", "requested_by": "u1"}
    assert may_void_combat(Actor("u3", guild="g1", manager=True), private=False, **voiding)
    assert not may_void_combat(Actor("u3", guild="g2", manager=True), private=False, **voiding)
    assert not may_void_combat(Actor("u2", guild="g1", manager=True), private=True, **voiding)
    assert not may_void_combat(Actor("u2", guild="g1"), private=False, **voiding)  # the opponent sees, not voids
    assert may_void_combat(Actor("u1", guild="g2"), private=True, **voiding)


async def test_voiding_follows_the_rule_and_a_refusal_writes_nothing(store: Store) -> None:
    report = a_report()
    public = await store.records.add(report, requested_by="u1", opponent="u2", guild_id="g1")
    private = await store.records.add(report, requested_by="u1", opponent="u2", guild_id="g1", private=True)
    with pytest.raises(RecordNotFound):  # a manager of another server: as if there were no such record
        await store.records.add_note(public, "void", actor=Actor("u9", guild="g2", manager=True), reason="mine now")
    with pytest.raises(VoidNotAllowed, match="or a manager of the server"):
        await store.records.add_note(public, "void", actor=Actor("u2", guild="g1"), reason="I lost")
    with pytest.raises(RecordNotFound):  # a private combat is not a manager's to see
        await store.records.add_note(private, "void", actor=Actor("u9", guild="g1", manager=True), reason="x")
    with pytest.raises(VoidNotAllowed, match="Only the player who asked for combat"):
        await store.records.add_note(private, "void", actor=Actor("u2", guild="g1", manager=True), reason="x")
    for record_id in (public, private):
        assert (await store.records.get(record_id, actor=OPERATOR)).history == ()
    await store.records.add_note(public, "void", actor=Actor("u9", guild="g1", manager=True), reason="re-rolled")
    await store.records.add_note(private, "void", actor=Actor("u1", guild="g2"), reason="wrong unit")
    assert all([(await store.records.get(i, actor=OPERATOR)).voided for i in (public, private)])


async def test_records_from_before_the_private_flag_become_private(empty_url: str) -> None:
    """Whether an old combat was private is unknown: the migration treats every one as private."""
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0004"))
            await connection.execute(
                text(
                    "INSERT INTO combat_records (game, attacker_spec, defender_spec, options_json, seed, "
                    "engine_version, report_json, outcome, winner, requested_by, opponent, guild_id, created_at) "
                    "VALUES ('40k', 'a', 'd', '{}', 1, '0.1.0', '{}', 'x', 'attacker', 'u1', 'u2', 'g1', "
                    "CURRENT_TIMESTAMP)"
                )
            )
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
            assert (await connection.execute(text("SELECT private FROM combat_records"))).scalar_one() in (True, 1)
        assert await current_revision(engine) == head_revision()  # upgraded past 0005, to the head (whichever it is)
    finally:
        await engine.dispose()
    store = await Store.open(empty_url)
    try:
        (row,) = await store.records.history(actor=OPERATOR)
        assert row.private
        assert not await store.records.history(actor=Actor("u3", guild="g1"))  # no longer shown to the server
        assert [r.id for r in await store.records.history(actor=Actor("u2", guild="g9"))] == [row.id]
    finally:
        await store.close()
