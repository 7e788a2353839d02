"""The challenges' expiry sweep (issue 24) on both backends: every open challenge past its time is marked expired
and its message edited, each by exactly one sweep of the several bot processes that run it, oldest deadline first;
what is still open in time, or already closed, is left alone; a row another transaction holds is skipped, not
waited for (PostgreSQL: ``FOR UPDATE SKIP LOCKED``); an edit that fails is logged and the others go on.

Seen failing: "skips a held challenge instead of waiting for it" with ``skip_locked=True`` taken out of
``Challenges.claim_expired`` (the claim waited on the held row until the hang guard failed it)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from bot.challenges.commitment import commitment
from bot.challenges.expiry import sweep_expired
from bot.data import catalogue
from bot.storage import Store
from bot.storage.challenges import StoredChallenge
from bot.storage.db import create_engine
from bot.storage.models import Challenge
from rules_core import get_game, resolve
from tests.bot.storage.conftest import migrated_postgresql
from tests.waits import scaled

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
GAME = get_game("40k")
# seconds on an idle machine (scaled: tests/waits.py): a claim waiting on a held row fails the test, not hangs it
HANG_GUARD = 20.0


async def challenge(store: Store, expires_at: datetime, *, number: int = 0) -> StoredChallenge:
    """An open challenge made an hour before T0 that expires at ``expires_at``."""
    seed, salt = 1000 + number, f"{number:064x}"
    inputs = {"attacker": GAME.example_attacker, "defender": GAME.example_defender, "options": {}}
    return await store.challenges.create(
        game=GAME.id, kind=GAME.command, inputs=inputs, seed=seed, salt=salt, commitment=commitment(seed, salt),
        challenger_id=f"p{number}", opponent_id="bob", guild_id="g1", channel_id="c1",
        expires_at=expires_at, at=T0 - timedelta(hours=1),
    )  # fmt: skip


async def expired(store: Store, count: int) -> list[int]:
    """``count`` open challenges past their time at T0, made in an order other than their deadlines'; their ids in
    the order of their deadlines."""
    made = [await challenge(store, T0 - timedelta(seconds=(number * 7) % count), number=number)
            for number in range(count)]  # fmt: skip
    return [found.id for found in sorted(made, key=lambda found: (found.expires_at, found.id))]


async def statuses(store: Store) -> dict[int, str]:
    async with store.sessions() as session:
        return {int(id_): status for id_, status in await session.execute(select(Challenge.id, Challenge.status))}


async def set_status(store: Store, challenge_id: int, status: str) -> None:
    async with store.sessions.begin() as session:
        await session.execute(update(Challenge).where(Challenge.id == challenge_id).values(status=status))


async def test_the_sweep_marks_each_expired_challenge_once_edits_it_and_leaves_the_rest(store: Store) -> None:
    due = await expired(store, 120)  # more than two batches
    in_time = [(await challenge(store, T0 + timedelta(minutes=1), number=200 + n)).id for n in range(3)]
    closed = {}
    for status in ("declined", "cancelled", "expired"):  # past their time too, but closed already
        closed[(await challenge(store, T0 - timedelta(hours=1), number=300 + len(closed))).id] = status
    for challenge_id, status in closed.items():
        await set_status(store, challenge_id, status)
    won = await challenge(store, T0 + timedelta(seconds=30), number=400)  # resolved in time, then its time passes
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=won.seed)
    await store.challenges.resolve(won, report, agreed={"challenge_id": won.id}, requested_by="bob", at=T0)
    before = await statuses(store)

    edited: list[StoredChallenge] = []

    async def edit(swept: StoredChallenge) -> None:
        edited.append(swept)

    assert await sweep_expired(store, edit, at=T0 + timedelta(seconds=30)) == 120
    assert [swept.id for swept in edited] == due  # each once, oldest deadline first
    assert {swept.status for swept in edited} == {"expired"}  # handed over as they are now
    after = await statuses(store)
    assert {after[challenge_id] for challenge_id in due} == {"expired"}
    assert {k: v for k, v in after.items() if k not in due} == {k: v for k, v in before.items() if k not in due}
    assert [after[challenge_id] for challenge_id in in_time] == ["open"] * 3
    assert (after[won.id], {after[k] for k in closed}) == ("resolved", {"declined", "cancelled", "expired"})

    edited.clear()
    assert await sweep_expired(store, edit, at=T0 + timedelta(seconds=30)) == 0  # nothing twice
    assert edited == []
    assert await sweep_expired(store, edit, at=T0 + timedelta(minutes=1)) == 3  # due at exactly that moment
    assert sorted(swept.id for swept in edited) == in_time


async def test_a_claim_takes_the_oldest_deadlines_first_and_at_most_its_limit(store: Store) -> None:
    due = await expired(store, 12)
    first = await store.challenges.claim_expired(at=T0, limit=5)
    assert [found.id for found in first] == due[:5]
    assert all(found.status == "expired" and found.expired(T0) for found in first)
    assert [found.id for found in await store.challenges.claim_expired(at=T0, limit=50)] == due[5:]
    assert await store.challenges.claim_expired(at=T0) == []
    for challenge_id in due:
        found = await store.challenges.get(challenge_id)
        assert found is not None and found.status == "expired" and found.record_id is None


@pytest.fixture
async def stores(store_url: str) -> AsyncIterator[list[Store]]:
    """Three stores on one database, each with its own engine and pool: three bot processes."""
    opened = [await Store.open(store_url) for _ in range(3)]
    try:
        yield opened
    finally:
        for store in opened:
            await store.close()


def counting(edits: Counter[int]) -> Callable[[StoredChallenge], Awaitable[None]]:
    async def edit(swept: StoredChallenge) -> None:
        edits[swept.id] += 1

    return edit


async def test_three_sweepers_at_once_mark_and_edit_each_expired_challenge_exactly_once(stores: list[Store]) -> None:
    """On either backend (SQLite: the UPDATE's compare-and-set alone keeps it once; a sweep that lost the race
    stops, the winner goes on)."""
    due = await expired(stores[0], 200)
    edits: list[Counter[int]] = [Counter(), Counter(), Counter()]
    for moment in (T0, T0 + timedelta(seconds=30)):  # two rounds of the sweep, every process at once
        await asyncio.gather(*(sweep_expired(store, counting(edits[n]), at=moment) for n, store in enumerate(stores)))
    assert sum(edits, Counter()) == Counter(dict.fromkeys(due, 1))  # every one, none twice
    assert set((await statuses(stores[0])).values()) == {"expired"}


@pytest.fixture
async def postgresql_sweepers() -> AsyncIterator[tuple[str, list[Store]]]:
    """Three stores on the PostgreSQL database: three bot processes."""
    url = await migrated_postgresql()
    opened = [await Store.open(url) for _ in range(3)]
    try:
        yield url, opened
    finally:
        for store in opened:
            await store.close()


async def test_three_sweepers_on_postgresql_split_the_work_and_never_claim_one_twice(
    postgresql_sweepers: tuple[str, list[Store]],
) -> None:
    """Each sweeper's first edit waits until all three have claimed a batch: the first batches are claimed while the
    others' are being edited, so each process takes a part of its own; then they race for the rest."""
    _, stores = postgresql_sweepers
    due = await expired(stores[0], 200)
    everyone = asyncio.Barrier(3)
    edits: list[Counter[int]] = [Counter(), Counter(), Counter()]

    def editor(number: int) -> Callable[[StoredChallenge], Awaitable[None]]:
        async def edit(swept: StoredChallenge) -> None:
            if not edits[number]:
                await everyone.wait()
            edits[number][swept.id] += 1

        return edit

    sweeps = (sweep_expired(store, editor(n), at=T0) for n, store in enumerate(stores))
    swept = await asyncio.wait_for(asyncio.gather(*sweeps), scaled(HANG_GUARD))
    assert all(count >= 50 for count in swept), swept  # a batch each at least
    assert sum(swept) == 200 and [sum(counted.values()) for counted in edits] == list(swept)
    assert sum(edits, Counter()) == Counter(dict.fromkeys(due, 1))  # every one, none twice
    assert set((await statuses(stores[0])).values()) == {"expired"}


@pytest.fixture
async def postgresql_stores() -> AsyncIterator[tuple[str, Store]]:
    url = await migrated_postgresql()
    opened = await Store.open(url)
    try:
        yield url, opened
    finally:
        await opened.close()


async def test_a_sweep_skips_a_held_challenge_instead_of_waiting_for_it(
    postgresql_stores: tuple[str, Store],
) -> None:
    """Another transaction holds the first expired challenge (a player's press, or another sweep claiming it): the
    sweep marks every other one without waiting, and the next sweep takes it. Without SKIP LOCKED the claim waits
    for the row and the hang guard fails the test."""
    url, store = postgresql_stores
    due = await expired(store, 60)
    held = due[0]  # the first in the sweep's order
    holder = create_engine(url)
    edited: list[int] = []

    async def edit(swept: StoredChallenge) -> None:
        edited.append(swept.id)

    try:
        async with holder.connect() as connection:
            transaction = await connection.begin()
            await connection.execute(select(Challenge.id).where(Challenge.id == held).with_for_update())
            assert await asyncio.wait_for(sweep_expired(store, edit, at=T0), scaled(HANG_GUARD)) == 59
            assert edited == due[1:]
            await transaction.rollback()
        assert (await statuses(store))[held] == "open"
        [late] = await store.challenges.claim_expired(at=T0 + timedelta(seconds=30))
        assert (late.id, late.status) == (held, "expired")
    finally:
        await holder.dispose()


async def test_an_edit_that_fails_is_logged_and_the_rest_of_the_batch_is_edited(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    due = await expired(store, 5)
    broken = due[1]
    edited: list[int] = []

    async def edit(swept: StoredChallenge) -> None:
        if swept.id == broken:
            raise RuntimeError("Unknown Message")  # deleted by a moderator, say
        edited.append(swept.id)

    with caplog.at_level(logging.ERROR, logger="referee.challenges"):
        assert await sweep_expired(store, edit, at=T0, batch=2) == 5
    assert edited == [challenge_id for challenge_id in due if challenge_id != broken]
    assert [record.getMessage() for record in caplog.records] == [
        f"challenge #{broken} expired, but its message could not be edited"
    ]
    assert set((await statuses(store)).values()) == {"expired"}  # the failed one too: the message is only a view
    assert await sweep_expired(store, edit, at=T0) == 0  # and it is not tried again
