"""Void once, notes within their limit, on both backends: a second void says the record is already void and adds
nothing; a note or void reason over its limit, or empty, is refused and nothing joins the history."""

from __future__ import annotations

import asyncio

import pytest

from bot.access import OPERATOR, Actor
from bot.storage import Store
from bot.storage.records import MAX_NOTE_CHARS, MAX_VOID_REASON_CHARS, AlreadyVoid
from rules_core import LimitError, RefereeError
from tests.bot.storage.test_records import a_report

ME = Actor("111", operator=True)


async def test_a_second_void_says_the_record_is_already_void(store: Store) -> None:
    record_id = await store.records.add(a_report(), requested_by="111")
    await store.records.add_note(record_id, "void", actor=ME, reason="Wrong unit entered.")
    with pytest.raises(AlreadyVoid) as caught:
        await store.records.add_note(record_id, "void", actor=Actor("222", operator=True), reason="Again.")
    assert f"Record #{record_id} is already void" in str(caught.value)
    assert "Wrong unit entered." in str(caught.value)
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert [(note.kind, note.reason) for note in stored.history] == [("void", "Wrong unit entered.")]
    await store.records.add_note(record_id, "note", actor=ME, reason="A note after the void is still welcome.")


async def test_voids_racing_on_one_record_leave_one(store: Store) -> None:
    record_id = await store.records.add(a_report(), requested_by="111")
    results = await asyncio.gather(
        *(store.records.add_note(record_id, "void", actor=ME, reason=f"reason {n}") for n in range(6)),
        return_exceptions=True,
    )
    assert sum(result is None for result in results) == 1
    assert all(result is None or isinstance(result, AlreadyVoid) for result in results), results
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert [note.kind for note in stored.history] == ["void"]


@pytest.mark.parametrize(("kind", "limit"), [("note", MAX_NOTE_CHARS), ("void", MAX_VOID_REASON_CHARS)])
async def test_a_reason_over_its_limit_is_refused(store: Store, kind: str, limit: int) -> None:
    record_id = await store.records.add(a_report(), requested_by="111")
    with pytest.raises(LimitError) as caught:
        await store.records.add_note(record_id, kind, actor=ME, reason="x" * (limit + 1))
    assert f"{limit + 1:,} characters" in str(caught.value) and f"the limit is {limit:,}" in str(caught.value)
    await store.records.add_note(record_id, kind, actor=ME, reason="x" * limit)
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert [len(note.reason) for note in stored.history] == [limit]


async def test_an_empty_reason_is_refused(store: Store) -> None:
    record_id = await store.records.add(a_report(), requested_by="111")
    for kind in ("note", "void"):
        with pytest.raises(RefereeError, match="Give a reason"):
            await store.records.add_note(record_id, kind, actor=ME, reason=" \n ")
    assert (await store.records.get(record_id, actor=OPERATOR)).history == ()
