"""store.settings on both backends: each write audited in its own transaction, nothing recorded when nothing changed,
the history paged newest first; and two caches on one database (two bot processes) agreeing after a refresh."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from sqlalchemy import select

from bot.server_settings.cache import SettingsCache
from bot.server_settings.model import CHANNEL, SERVER, USER, VISIBILITY, SettingRow, house_key
from bot.storage import Store
from bot.storage.models import SettingChange, SettingValue

GUILD, OTHER, CHANNEL_ID = "900000000000000001", "900000000000000002", "910000000000000001"
MANAGER, PLAYER = "811111111111111111", "822222222222222222"
SUM = house_key("epic", "result_dice")


async def test_a_write_is_one_row_and_one_audit_entry_and_the_same_value_again_records_nothing(store: Store) -> None:
    assert await store.settings.all_rows() == ([], 0)
    first = await store.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
    assert first is not None and (first.before, first.after, first.actor, first.key) == (None, "sum", MANAGER, SUM)
    assert first.at.tzinfo is not None
    assert await store.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER) is None  # no change: nothing recorded
    second = await store.settings.set(SERVER, GUILD, GUILD, SUM, "highest", PLAYER)
    assert second is not None and (second.before, second.after) == ("sum", "highest") and second.id > first.id
    rows, version = await store.settings.all_rows()
    assert rows == [SettingRow(SERVER, GUILD, GUILD, SUM, "highest")] and version == second.id
    cleared = await store.settings.clear(SERVER, GUILD, GUILD, SUM, MANAGER)
    assert cleared is not None and (cleared.before, cleared.after) == ("highest", None)
    assert await store.settings.clear(SERVER, GUILD, GUILD, SUM, MANAGER) is None
    assert await store.settings.all_rows() == ([], cleared.id)
    assert [change.id for change in await store.settings.history(GUILD, limit=10)] == [cleared.id, second.id, first.id]


async def test_values_are_json_and_rows_are_found_by_server_and_by_user(store: Store) -> None:
    await store.settings.set(SERVER, GUILD, GUILD, house_key("40k", "max_rounds"), 3, MANAGER)
    await store.settings.set(CHANNEL, CHANNEL_ID, GUILD, VISIBILITY, "private", MANAGER)
    await store.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "public", MANAGER)
    await store.settings.set(USER, PLAYER, None, "private", True, PLAYER)
    assert await store.settings.rows_for_guild(GUILD) == [
        SettingRow(SERVER, GUILD, GUILD, house_key("40k", "max_rounds"), 3),
        SettingRow(CHANNEL, CHANNEL_ID, GUILD, VISIBILITY, "private"),
    ]
    assert await store.settings.rows_for_user(PLAYER) == [SettingRow(USER, PLAYER, None, "private", True)]
    assert await store.settings.rows_for_user(MANAGER) == []
    with pytest.raises(ValueError, match="no server"):
        await store.settings.set(USER, PLAYER, GUILD, "private", True, PLAYER)
    with pytest.raises(ValueError, match="clear"):
        await store.settings.set(SERVER, GUILD, GUILD, VISIBILITY, None, MANAGER)


async def test_the_history_pages_newest_first_and_changes_since_a_version(store: Store) -> None:
    made = []
    for rounds in range(1, 8):
        change = await store.settings.set(SERVER, GUILD, GUILD, house_key("40k", "max_rounds"), rounds, MANAGER)
        assert change is not None
        made.append(change.id)
    await store.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "private", MANAGER)  # another server's: not listed
    page = await store.settings.history(GUILD, limit=3)
    assert [change.after for change in page] == [7, 6, 5]
    following = await store.settings.history(GUILD, limit=3, before_id=page[-1].id)
    assert [change.after for change in following] == [4, 3, 2]
    since = await store.settings.changes_since(made[4])
    assert [change.after for change in since] == [6, 7, "private"]
    assert [change.after for change in await store.settings.changes_since(0, also=[made[0]])][:2] == [1, 2]
    assert await store.settings.changes_since(await store.settings.version()) == []


async def test_clearing_every_preference_of_a_user_audits_each(store: Store) -> None:
    await store.settings.set(USER, PLAYER, None, "private", True, PLAYER)
    await store.settings.set(USER, PLAYER, None, "steps", "full", PLAYER)
    cleared = await store.settings.clear_all(USER, PLAYER, None, PLAYER)
    assert sorted((c.key, c.before, c.after) for c in cleared) == [("private", True, None), ("steps", "full", None)]
    assert await store.settings.rows_for_user(PLAYER) == []
    assert await store.settings.clear_all(USER, PLAYER, None, PLAYER) == []


async def test_a_change_through_one_process_reaches_the_others_cache_after_its_refresh(store_url: str) -> None:
    """Two stores on one database, each with its own cache: two bot processes in effect."""
    first, second = await Store.open(store_url), await Store.open(store_url)
    try:
        one, two = SettingsCache(), SettingsCache()
        await one.load(first)
        await two.load(second)
        change = await first.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
        assert change is not None
        one.apply(change)  # the writer's own cache at once
        assert one.effective(GUILD, CHANNEL_ID).house_for("epic") == {"result_dice": "sum"}
        assert two.effective(GUILD, CHANNEL_ID).house_for("epic") == {}  # the other has not looked yet
        assert await two.refresh(second) == 1
        assert two.effective(GUILD, CHANNEL_ID).house_for("epic") == {"result_dice": "sum"}
        assert two.version == change.id

        private = await second.settings.set(CHANNEL, CHANNEL_ID, GUILD, VISIBILITY, "private", MANAGER)
        steps = await second.settings.set(USER, PLAYER, None, "steps", "full", PLAYER)
        assert private is not None and steps is not None
        assert await one.refresh(first) == 3  # its own change too: reloaded, and still the same
        assert one.effective(GUILD, CHANNEL_ID).private and not one.effective(GUILD, "another").private
        assert one.preferences(PLAYER).full_steps
        cleared = await first.settings.clear(SERVER, GUILD, GUILD, SUM, MANAGER)
        assert cleared is not None
        await two.refresh(second)
        assert two.effective(GUILD, CHANNEL_ID).house_for("epic") == {}
        assert await two.refresh(second) == 0  # nothing new: nothing reloaded
    finally:
        await first.close()
        await second.close()


async def test_a_change_committed_after_a_later_one_is_not_missed(store: Store) -> None:
    """An audit id below the version seen, found later (a transaction that took its id first and committed last),
    is looked for again until found."""
    cache = SettingsCache()
    await cache.load(store)
    early = await store.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
    late = await store.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "private", MANAGER)
    assert early is not None and late is not None
    # As if the poll had run between the two commits in the other order: it saw only the later id, and noted the
    # earlier one missing.
    cache.version = late.id
    cache.replace_guild(OTHER, await store.settings.rows_for_guild(OTHER))
    cache._gaps[early.id] = time.monotonic()
    assert cache.effective(GUILD, None).house_for("epic") == {}
    assert await cache.refresh(store) == 1
    assert cache.effective(GUILD, None).house_for("epic") == {"result_dice": "sum"} and not cache._gaps


async def test_a_failing_poll_is_logged_once_and_polling_goes_on(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    writer, polled = await Store.open(store_url), await Store.open(store_url)
    cache = SettingsCache()
    await cache.load(polled)
    real = polled.settings.changes_since
    calls = 0

    async def failing(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls <= 3:
            raise OSError("the database went away")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    polled.settings.changes_since = failing  # type: ignore[method-assign]
    await writer.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
    task = asyncio.create_task(cache.poll(polled, every=0.01))
    try:
        with caplog.at_level(logging.INFO, logger="referee.settings"):
            for _ in range(500):
                if cache.effective(GUILD, None).house_for("epic"):
                    break
                await asyncio.sleep(0.01)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await writer.close()
        await polled.close()
    assert cache.effective(GUILD, None).house_for("epic") == {"result_dice": "sum"}
    failures = [r for r in caplog.records if "could not be refreshed" in r.getMessage()]
    assert len(failures) == 1 and any("refreshed again" in r.getMessage() for r in caplog.records)


async def test_a_users_export_holds_their_preferences_and_the_settings_changes_they_made(store: Store) -> None:
    await store.settings.set(USER, PLAYER, None, "steps", "full", PLAYER)
    await store.settings.set(SERVER, GUILD, GUILD, SUM, "sum", PLAYER)  # as a manager of a server
    await store.settings.set(SERVER, GUILD, GUILD, VISIBILITY, "private", MANAGER)  # someone else's change
    mine = await store.privacy.export(user=PLAYER)
    assert [(row["key"], row["value"]) for row in mine["preferences"]] == [("steps", "full")]
    assert [(c["key"], c["before"], c["after"], c["actor"]) for c in mine["settings_changes"]] == [
        ("steps", None, "full", PLAYER), (SUM, None, "sum", PLAYER),
    ]  # fmt: skip
    server = await store.privacy.export(guild=GUILD)
    assert {row["key"] for row in server["settings"]} == {SUM, VISIBILITY}
    assert [c["actor"] for c in server["settings_changes"]] == [PLAYER, MANAGER]  # no one's preferences


async def test_deleting_a_user_or_a_server_reaches_every_processs_cache(store_url: str) -> None:
    """A deletion leaves no audit row of what went: a mark naming nobody makes every cache reload everything."""
    first, second = await Store.open(store_url), await Store.open(store_url)
    try:
        await first.settings.set(USER, PLAYER, None, "private", True, PLAYER)
        await first.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
        await first.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "private", MANAGER)
        cache = SettingsCache()
        await cache.load(second)
        assert cache.preferences(PLAYER).private is True
        counts = await first.privacy.delete(user=PLAYER)
        assert (counts["preferences"], counts["preference_changes"]) == (1, 1)
        await cache.refresh(second)
        assert cache.preferences(PLAYER).private is None
        assert cache.effective(GUILD, None).house_for("epic") == {"result_dice": "sum"}
        deleted = await first.privacy.delete(guild=GUILD)
        assert (deleted["settings"], deleted["settings_changes"]) == (1, 1)
        await cache.refresh(second)
        assert cache.effective(GUILD, None).house_for("epic") == {} and cache.effective(OTHER, None).private
        assert await first.settings.history(GUILD, limit=10) == []
        assert await cache.refresh(second) == 0
    finally:
        await first.close()
        await second.close()


async def test_after_a_server_deletion_took_the_newest_audit_rows_later_changes_are_still_seen(store_url: str) -> None:
    """Deleting a server's settings removes the audit's newest rows; their ids are never given again (SQLite's
    AUTOINCREMENT, PostgreSQL's sequence), so the erase mark and every later change stay above each cache's
    version."""
    first, second = await Store.open(store_url), await Store.open(store_url)
    try:
        await first.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "private", MANAGER)
        await first.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
        await first.settings.set(CHANNEL, CHANNEL_ID, GUILD, house_key("40k", "max_rounds"), 3, MANAGER)
        deleting, other = SettingsCache(), SettingsCache()
        await deleting.load(first)
        await other.load(second)
        assert other.effective(GUILD, CHANNEL_ID).house_for("40k") == {"max_rounds": 3}
        await first.privacy.delete(guild=GUILD)  # the two newest audit rows go
        for cache, store in ((deleting, first), (other, second)):
            assert await cache.refresh(store) == 1  # the erase mark
            assert cache.effective(GUILD, CHANNEL_ID).house_rules == {}
        change = await first.settings.set(SERVER, OTHER, OTHER, house_key("epic", "max_rounds"), 4, MANAGER)
        assert change is not None
        for cache, store in ((deleting, first), (other, second)):
            assert await cache.refresh(store) == 1
            assert cache.effective(OTHER, None).house_for("epic") == {"max_rounds": 4}
            assert cache.effective(OTHER, None).private
    finally:
        await first.close()
        await second.close()


async def test_a_change_that_commits_just_after_a_load_below_its_version_is_seen(store: Store) -> None:
    """On PostgreSQL a write can take its audit id before another and commit after a cache's load has read the
    later one: the load notes the missing ids below its version, and the next refresh finds the late one."""
    early = await store.settings.set(SERVER, GUILD, GUILD, SUM, "sum", MANAGER)
    late = await store.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "private", MANAGER)
    assert early is not None and late is not None
    async with store.settings.sessions.begin() as session:  # as if the early write had not committed yet
        held = [await session.get(SettingChange, early.id), await session.scalar(
            select(SettingValue).where(SettingValue.guild_id == GUILD))]  # fmt: skip
        copies = [{c.key: getattr(row, c.key) for c in row.__mapper__.column_attrs} for row in held if row]
        for row in held:
            await session.delete(row)
    cache = SettingsCache()
    await cache.load(store)
    assert cache.version == late.id and cache.effective(GUILD, None).house_for("epic") == {}
    async with store.settings.sessions.begin() as session:  # the early write commits now
        session.add(SettingChange(**copies[0]))
        session.add(SettingValue(**copies[1]))
    assert await cache.refresh(store) == 1
    assert cache.effective(GUILD, None).house_for("epic") == {"result_dice": "sum"}


async def test_two_processes_setting_the_same_new_key_at_once_both_succeed(store_url: str) -> None:
    """Both read "unset", both insert: the second meets the unique constraint and is retried as an update."""
    first, second = await Store.open(store_url), await Store.open(store_url)
    try:
        for rounds in range(1, 9):
            key = house_key("epic", f"rule_{rounds}")
            done = await asyncio.gather(first.settings.set(SERVER, GUILD, GUILD, key, "sum", MANAGER),
                                        second.settings.set(SERVER, GUILD, GUILD, key, "highest", PLAYER))  # fmt: skip
            assert all(change is None or change.key == key for change in done)
            (row,) = [row for row in await first.settings.rows_for_guild(GUILD) if row.key == key]
            assert row.value in ("sum", "highest")
    finally:
        await first.close()
        await second.close()
