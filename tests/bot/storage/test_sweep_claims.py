"""The league sweep shared by several bot processes (issue 23): each due match is confirmed, and each reminder
claimed, by exactly one of them. Every store here has its own engine and pool, so to PostgreSQL they are as many
processes. The sweep claims its rows with ``SELECT ... FOR UPDATE SKIP LOCKED``: a row another transaction holds
is left to it, never waited for (on SQLite, a single writer, the compare-and-set alone keeps it once).

What each test proves, run against the sweep before issue 23 (a transaction per match, no row locks; commit 7c34c08):
- The two "three sweepers ... exactly once" tests PASSED on that code too: its compare-and-set already kept each
  match confirmed and each reminder claimed once. They guard "exactly once", not SKIP LOCKED.
- The two "skips a locked match instead of waiting for it" tests (PostgreSQL) are the ones that prove SKIP LOCKED:
  the old sweep waited on the held row until the hang guard failed them.
- "a reminder is claimed behind more short windows" failed on that code (the reminder was never reached).
- "a match that cannot be confirmed is skipped" failed on the code before its savepoints (the whole batch rolled
  back, every minute, and the sweep raised)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, text

from bot.access import OPERATOR, Actor
from bot.storage import Store
from bot.storage.db import create_engine
from bot.storage.models import LeagueEvent, LeagueMatch
from tests.bot.storage.conftest import migrated_postgresql
from tests.waits import scaled

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
GUILD = "g1"
ORGANISER = Actor("org", guild=GUILD)
MATCHES = 200
# seconds on an idle machine (scaled: tests/waits.py): a sweep waiting on a locked row fails the test, not hangs it
HANG_GUARD = 20.0


async def overdue_matches(store: Store, count: int, *, confirm_hours: int) -> list[int]:
    """``count`` pending reports over two leagues (alternately, so a batch of the sweep spans both), all made at
    T0; their ids."""
    players = [f"p{number}" for number in range(16)]  # 120 pairings a league
    leagues = []
    for name in ("Autumn Crusade", "Winter Campaign"):
        league = await store.leagues.create(GUILD, name, "40k", actor=ORGANISER, at=T0)
        await store.leagues.update_settings(league.id, actor=ORGANISER, confirm_hours=confirm_hours)
        for player in players:
            await store.leagues.join(league.id, actor=Actor(player, guild=GUILD), at=T0)
        leagues.append(league.id)
    pairs = itertools.combinations(players, 2)
    ids = []
    for number in range(count):
        league_id = leagues[number % 2]
        if number % 2 == 0:
            reporter, opponent = next(pairs)
        outcome = await store.matches.report(
            league_id, actor=Actor(reporter, guild=GUILD), opponent=opponent, result="win", at=T0
        )
        ids.append(outcome.match.id)
    return ids


@pytest.fixture
async def stores(store_url: str) -> AsyncIterator[list[Store]]:
    """Three stores on one database: three bot processes."""
    opened = [await Store.open(store_url) for _ in range(3)]
    try:
        yield opened
    finally:
        for store in opened:
            await store.close()


async def events(store: Store, kind: str) -> Counter[int]:
    """How many audit events of ``kind`` each match has."""
    async with store.sessions() as session:
        rows = await session.scalars(select(LeagueEvent.match_id).where(LeagueEvent.kind == kind))
        return Counter(int(match_id) for match_id in rows if match_id is not None)


async def test_three_sweepers_confirm_each_overdue_match_exactly_once(stores: list[Store]) -> None:
    """Passed before SKIP LOCKED as well (the compare-and-set decides): it proves once, not how the work is shared."""
    ids = await overdue_matches(stores[0], MATCHES, confirm_hours=1)
    confirmed: list[int] = []
    for minute in range(3):  # several rounds of the sweep, every process at once
        at = T0 + timedelta(hours=2, minutes=minute)
        rounds = await asyncio.gather(*(store.matches.confirm_due(at=at) for store in stores))
        confirmed += [match.id for swept in rounds for match in swept]
        assert all(match.status == "confirmed" and match.decided_by == "auto" for swept in rounds for match in swept)
    assert sorted(confirmed) == sorted(ids)  # all of them, none twice
    assert await events(stores[0], "auto-confirmed") == Counter(dict.fromkeys(ids, 1))
    for store in stores:
        assert await store.matches.confirm_due(at=T0 + timedelta(days=3)) == []


async def test_three_sweepers_claim_each_reminder_exactly_once(stores: list[Store]) -> None:
    """Passed before SKIP LOCKED as well: it proves each reminder claimed once, not how the work is shared."""
    ids = await overdue_matches(stores[0], MATCHES, confirm_hours=48)
    reminded: list[int] = []
    for minute in range(4):  # a claim takes at most 100 a sweep: rounds until all are claimed
        at = T0 + timedelta(hours=24, minutes=minute)
        rounds = await asyncio.gather(*(store.matches.claim_reminders(at=at) for store in stores))
        reminded += [reminder.match.id for claimed in rounds for reminder in claimed]
    assert sorted(reminded) == sorted(ids)
    async with stores[0].sessions() as session:
        marked = (await session.scalars(select(LeagueMatch.reminded_at).where(LeagueMatch.id.in_(ids)))).all()
    assert len(marked) == MATCHES and all(moment is not None for moment in marked)


@pytest.fixture
async def postgresql_stores() -> AsyncIterator[tuple[str, list[Store]]]:
    url = await migrated_postgresql()
    opened = [await Store.open(url) for _ in range(2)]
    try:
        yield url, opened
    finally:
        for store in opened:
            await store.close()


async def test_a_sweep_skips_a_locked_match_instead_of_waiting_for_it(
    postgresql_stores: tuple[str, list[Store]],
) -> None:
    """Another transaction holds one overdue match (``SELECT ... FOR UPDATE``, as a sweep claiming it does): a
    sweep from another process confirms all the others without waiting for it, and the next sweep takes it. This
    is the test of SKIP LOCKED: without it the sweep waits for the row and the hang guard fails the test."""
    url, (maker, sweeper) = postgresql_stores
    ids = await overdue_matches(maker, 60, confirm_hours=1)
    held = ids[0]  # the first in the sweep's order
    holder = create_engine(url)
    try:
        async with holder.connect() as connection:
            transaction = await connection.begin()
            await connection.execute(select(LeagueMatch.id).where(LeagueMatch.id == held).with_for_update())
            swept = await asyncio.wait_for(sweeper.matches.confirm_due(at=T0 + timedelta(hours=2)), scaled(HANG_GUARD))
            assert sorted(match.id for match in swept) == sorted(ids[1:])
            await transaction.rollback()
        [late] = await sweeper.matches.confirm_due(at=T0 + timedelta(hours=2, minutes=1))
        assert (late.id, late.status) == (held, "confirmed")
        assert (await sweeper.matches.get(held, actor=OPERATOR)).decided_by == "auto"
    finally:
        await holder.dispose()


async def test_a_reminder_claim_skips_a_locked_match_instead_of_waiting_for_it(
    postgresql_stores: tuple[str, list[Store]],
) -> None:
    """SKIP LOCKED for the reminders' claim (without it, the claim waits and the hang guard fails the test)."""
    url, (maker, sweeper) = postgresql_stores
    ids = await overdue_matches(maker, 30, confirm_hours=48)
    held = ids[0]
    holder = create_engine(url)
    try:
        async with holder.connect() as connection:
            transaction = await connection.begin()
            await connection.execute(select(LeagueMatch.id).where(LeagueMatch.id == held).with_for_update())
            claimed = await asyncio.wait_for(
                sweeper.matches.claim_reminders(at=T0 + timedelta(hours=24)), scaled(HANG_GUARD)
            )
            assert sorted(reminder.match.id for reminder in claimed) == sorted(ids[1:])
            await transaction.rollback()
        [late] = await sweeper.matches.claim_reminders(at=T0 + timedelta(hours=24, minutes=1))
        assert late.match.id == held
    finally:
        await holder.dispose()


async def test_a_reminder_is_claimed_behind_more_short_windows_than_a_sweep_takes(store: Store) -> None:
    """Reports whose window is a day or less get no reminder; more of them due first than one claim takes (100)
    once hid a later report's reminder from every sweep."""
    league = await store.leagues.create(GUILD, "Autumn Crusade", "40k", actor=ORGANISER, at=T0)
    players = [f"p{number}" for number in range(16)]
    for player in players:
        await store.leagues.join(league.id, actor=Actor(player, guild=GUILD), at=T0)
    pairs = itertools.combinations(players, 2)
    await store.leagues.update_settings(league.id, actor=ORGANISER, confirm_hours=48)
    reporter, opponent = next(pairs)
    waiting = await store.matches.report(league.id, actor=Actor(reporter, guild=GUILD), opponent=opponent,
                                         result="win", at=T0)  # fmt: skip
    await store.leagues.update_settings(league.id, actor=ORGANISER, confirm_hours=24)
    for reporter, opponent in itertools.islice(pairs, 101):  # due a day after T0 + 1 hour, before the one above
        await store.matches.report(league.id, actor=Actor(reporter, guild=GUILD), opponent=opponent, result="win",
                                   at=T0 + timedelta(hours=1))  # fmt: skip
    [reminder] = await store.matches.claim_reminders(at=T0 + timedelta(hours=24, minutes=30))
    assert reminder.match.id == waiting.match.id


@contextlib.asynccontextmanager
async def refusing_updates_of(url: str, match_id: int) -> AsyncIterator[None]:
    """A trigger that makes the database refuse every update of one match (as a constraint it breaks would): the
    sweep's change of that row fails for real, on either backend."""
    if url.startswith("sqlite"):
        create = [f"CREATE TRIGGER stuck_match BEFORE UPDATE ON league_matches WHEN OLD.id = {match_id} "
                  "BEGIN SELECT RAISE(ABORT, 'this match cannot change'); END"]  # fmt: skip
        drop = ["DROP TRIGGER stuck_match"]
    else:
        create = [
            "CREATE OR REPLACE FUNCTION stuck_match() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'this match cannot change'; END $$",
            f"CREATE TRIGGER stuck_match BEFORE UPDATE ON league_matches FOR EACH ROW WHEN (OLD.id = {match_id}) "
            "EXECUTE FUNCTION stuck_match()",
        ]
        drop = ["DROP TRIGGER stuck_match ON league_matches", "DROP FUNCTION stuck_match()"]
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for statement in create:
                await connection.execute(text(statement))
        try:
            yield
        finally:
            async with engine.begin() as connection:
                for statement in drop:
                    await connection.execute(text(statement))
    finally:
        await engine.dispose()


async def test_a_match_that_cannot_be_confirmed_is_skipped_and_the_rest_of_its_batch_confirmed(
    store_url: str, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """One due match whose change fails used to roll its whole batch of 50 back, and, first in the deadline order,
    did it again every minute: neither it nor any match behind it was ever confirmed. Each match has its own
    savepoint now: the failing one is logged and left pending, every other one is confirmed."""
    ids = await overdue_matches(store, 60, confirm_hours=1)  # more than one batch, all due at the same moment
    stuck = ids[0]  # the first in the sweep's order (deadline, then id), every minute
    async with refusing_updates_of(store_url, stuck):
        with caplog.at_level(logging.ERROR, logger="referee.leagues"):
            swept = await store.matches.confirm_due(at=T0 + timedelta(hours=2))
        assert sorted(match.id for match in swept) == sorted(ids[1:])
        assert [record.getMessage() for record in caplog.records] == [
            f"league match #{stuck} could not be confirmed automatically; skipped"
        ]
        assert await store.matches.confirm_due(at=T0 + timedelta(hours=2, minutes=1)) == []  # the next minute too
    assert (await store.matches.get(stuck, actor=OPERATOR)).status == "pending"
    assert await events(store, "auto-confirmed") == Counter(dict.fromkeys(ids[1:], 1))
    [late] = await store.matches.confirm_due(at=T0 + timedelta(hours=2, minutes=2))  # once it can change again
    assert late.id == stuck
