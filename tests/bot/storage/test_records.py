"""Combat records on both backends: stored exactly, listed, voided and annotated, never lost or duplicated."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.access import OPERATOR, Actor
from bot.storage import Store
from bot.storage.records import RecordNotFound
from rules_core import resolve
from rules_core.report import Report
from tests.waits import scaled

MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORKS = "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def a_report(seed: int = 1, game: str = "40k") -> Report:
    if game == "duel":
        return resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=seed)
    return resolve("40k", MARINES, ORKS, seed=seed, charge_distance=4)


async def test_a_record_keeps_the_report_byte_for_byte(store: Store) -> None:
    report = a_report()
    at = datetime(2026, 11, 1, 20, 30, tzinfo=UTC)
    record_id = await store.records.add(report, requested_by="111", opponent="222", guild_id="g", channel_id="c", at=at)
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.report == report
    assert stored.report_json == report.to_json(indent=None)
    assert (stored.requested_by, stored.opponent, stored.guild_id, stored.channel_id) == ("111", "222", "g", "c")
    assert stored.created_at == at
    assert stored.history == ()
    assert not stored.voided


async def test_an_unknown_record_is_a_clear_error(store: Store) -> None:
    with pytest.raises(RecordNotFound, match="no combat record #42"):
        await store.records.get(42, actor=OPERATOR)
    with pytest.raises(RecordNotFound):
        await store.records.add_note(42, "void", actor=Actor("me", operator=True), reason="x")


async def test_voids_and_notes_join_the_history_and_the_record_never_changes(store: Store) -> None:
    report = a_report()
    record_id = await store.records.add(report, requested_by="111")
    await store.records.add_note(
        record_id, "note", actor=Actor("222", operator=True), reason="Dice rolled on the table agreed."
    )
    await store.records.add_note(record_id, "void", actor=Actor("111", operator=True), reason="Wrong unit entered.")
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert [(n.kind, n.actor) for n in stored.history] == [("note", "222"), ("void", "111")]
    assert stored.voided
    assert stored.report_json == report.to_json(indent=None)
    with pytest.raises(ValueError, match="one of"):
        await store.records.add_note(record_id, "edit", actor=Actor("111", operator=True), reason="x")


async def test_history_is_newest_first_with_filters_and_paging(store: Store) -> None:
    start = datetime(2026, 11, 1, tzinfo=UTC)
    ids = []
    for n in range(6):
        game = "duel" if n % 2 else "40k"
        guild = "g1" if n < 4 else "g2"
        ids.append(await store.records.add(a_report(n, game), requested_by=f"user{n % 3}", guild_id=guild,
                                           at=start + timedelta(minutes=n)))  # fmt: skip
    await store.records.add_note(ids[5], "void", actor=Actor("x", operator=True), reason="mistake")
    everything = await store.records.history(actor=OPERATOR)
    assert [row.id for row in everything] == ids[::-1]
    assert everything[0].voided and not everything[1].voided
    assert everything[-1].attacker == "Marine" and everything[-1].defender == "Ork Boy"
    assert [row.id for row in await store.records.history(actor=OPERATOR, game="duel")] == [ids[5], ids[3], ids[1]]
    assert [row.id for row in await store.records.history(actor=OPERATOR, requested_by="user0")] == [ids[3], ids[0]]
    assert [row.id for row in await store.records.history(actor=OPERATOR, guild_id="g2")] == [ids[5], ids[4]]
    assert [row.id for row in await store.records.history(actor=OPERATOR, include_voided=False, limit=2)] == [
        ids[4],
        ids[3],
    ]
    assert [row.id for row in await store.records.history(actor=OPERATOR, before_id=ids[2])] == [ids[1], ids[0]]


async def test_200_combats_recorded_concurrently_are_all_there_once(store: Store) -> None:
    reports = [a_report(seed) for seed in range(200)]
    ids = await asyncio.gather(*(store.records.add(report, requested_by="load") for report in reports))
    assert len(set(ids)) == 200
    rows = await store.records.history(actor=OPERATOR, requested_by="load", limit=200)
    assert len(rows) == 200
    stored = await asyncio.gather(*(store.records.get(record_id, actor=OPERATOR) for record_id in ids))
    assert [s.report.seed for s in stored] == list(range(200))


async def test_a_combat_is_continued_once_and_the_link_survives_deleting_the_first(store: Store) -> None:
    from bot.storage.records import AlreadyContinued

    first = await store.records.add(a_report(1), requested_by="u1")
    second = await store.records.add(a_report(2), requested_by="u2", opponent="u1", continues=first)
    assert await store.records.continued_by(first, actor=OPERATOR) == second
    assert (await store.records.get(second, actor=OPERATOR)).continues_id == first
    with pytest.raises(AlreadyContinued, match=f"already been continued as #{second}"):
        await store.records.add(a_report(3), requested_by="u1", continues=first)
    with pytest.raises(AlreadyContinued, match=r"already been continued\.$"):  # not theirs to see: no id given
        await store.records.add(a_report(3), requested_by="u9", continues=first)
    assert len(await store.records.history(actor=OPERATOR)) == 2  # the refused continuation wrote nothing
    await store.privacy.delete(user="u1")
    assert (
        await store.records.get(second, actor=OPERATOR)
    ).continues_id is None  # the link is cleared, the later record kept


async def test_several_records_in_one_transaction_keep_their_order(store: Store) -> None:
    from bot.storage.records import RecordRequest

    requests = [RecordRequest(a_report(seed), requested_by=f"u{seed}") for seed in range(30)]
    ids = await store.records.add_many(requests)
    assert ids == sorted(ids) and len(set(ids)) == 30
    for seed, record_id in zip(range(30), ids, strict=True):
        stored = await store.records.get(record_id, actor=OPERATOR)
        assert (stored.report.seed, stored.requested_by) == (seed, f"u{seed}")


async def test_the_writer_batches_a_burst_and_retries_a_bad_row_alone(store: Store) -> None:
    from bot.discord.record_writer import RecordWriter
    from bot.storage.records import AlreadyContinued, RecordRequest

    first = await store.records.add(a_report(0), requested_by="u")
    await store.records.add(a_report(1), requested_by="u", continues=first)
    writer = RecordWriter(store)
    good = [writer.record(RecordRequest(a_report(seed), requested_by="burst")) for seed in range(20)]
    bad = writer.record(RecordRequest(a_report(99), requested_by="burst", continues=first))
    results = await asyncio.gather(*good, bad, return_exceptions=True)
    await writer.close()
    assert isinstance(results[-1], AlreadyContinued)  # the taken continuation fails alone...
    assert len({r for r in results[:-1] if isinstance(r, int)}) == 20  # ...and the other twenty are written
    assert len(await store.records.history(actor=OPERATOR, requested_by="burst", limit=200)) == 20


async def test_the_writer_closing_writes_what_it_holds_rather_than_dropping_it(store: Store) -> None:
    """The bot stopping closes the writer: results handed to it and not yet written are written first (they were
    cancelled, and their answers never heard back)."""
    from bot.discord.record_writer import RecordWriter
    from bot.storage.records import RecordRequest

    writer = RecordWriter(store)
    waiting = [asyncio.ensure_future(writer.record(RecordRequest(a_report(seed), requested_by="late")))
               for seed in range(3)]  # fmt: skip
    await asyncio.sleep(0)  # handed over; the writer's turn has not come yet
    await writer.close(timeout=scaled(10))
    ids = await asyncio.wait_for(asyncio.gather(*waiting), scaled(1))
    assert len(set(ids)) == 3
    assert len(await store.records.history(actor=OPERATOR, requested_by="late", limit=10)) == 3


async def test_a_record_keeps_which_options_came_from_house_rules(store: Store) -> None:
    """The record row says which of the report's options came from the server's house rules, through every way a
    record is written (one, several, the writer's burst and its retry alone); the report itself is unchanged, and
    the user's data export says them too."""
    from bot.discord.record_writer import RecordWriter
    from bot.storage.records import RecordRequest

    report = resolve(
        "40k", MARINES, ORKS, seed=3, charge_distance=4, morale_modifier="per_wound", ws_majority="over_half"
    )
    house = ("morale_modifier", "ws_majority")
    one = await store.records.add(report, requested_by="u1", house_rules=house)
    none = await store.records.add(report, requested_by="u1")
    many = await store.records.add_many([RecordRequest(report, requested_by="u1", house_rules=house[:1]),
                                         RecordRequest(report, requested_by="u1")])  # fmt: skip
    writer = RecordWriter(store)
    burst = await asyncio.gather(*(writer.record(RecordRequest(report, requested_by="u1", house_rules=house))
                                   for _ in range(3)))  # fmt: skip
    alone = await writer.record(RecordRequest(report, requested_by="u1", house_rules=house[1:]))
    await writer.close()
    wanted = {one: house, none: (), many[0]: house[:1], many[1]: (), alone: house[1:]} | dict.fromkeys(burst, house)
    for record_id, names in wanted.items():
        stored = await store.records.get(record_id, actor=OPERATOR)
        assert stored.house_rules == names
        assert stored.report_json == report.to_json(indent=None)  # the report's JSON does not change
    exported = {row["id"]: row["house_rules"] for row in (await store.privacy.export(user="u1"))["combat_records"]}
    assert exported == {record_id: list(names) for record_id, names in wanted.items()}
