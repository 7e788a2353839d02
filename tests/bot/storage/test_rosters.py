"""Rosters on both backends: saved, shared, listed, deleted, and imported all or nothing."""

from __future__ import annotations

import pytest

import bot.storage.rosters as rosters_module
from bot.storage import StorageError, Store
from bot.storage.rosters import RosterExists, RosterInput, RosterNotFound

MARINES = RosterInput("40k", "marines", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "five marines")
ORKS = RosterInput("40k", "orks", "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+")
DUELLIST = RosterInput("duel", "marines", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+")


async def test_save_get_replace_and_delete(store: Store) -> None:
    saved = await store.rosters.save("u1", MARINES)
    assert (saved.game, saved.name, saved.spec, saved.description) == ("40k", "marines", MARINES.spec, "five marines")
    assert (await store.rosters.get("u1", "40k", "marines")).spec == MARINES.spec
    # The same name in another game is another roster.
    await store.rosters.save("u1", DUELLIST)
    assert (await store.rosters.get("u1", "duel", "marines")).spec == DUELLIST.spec
    replaced = await store.rosters.save("u1", RosterInput("40k", "marines", "10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"))
    assert replaced.spec.startswith("10x") and replaced.created_at == saved.created_at
    with pytest.raises(RosterExists):
        await store.rosters.save("u1", MARINES, replace=False)
    await store.rosters.delete("u1", "40k", "marines")
    with pytest.raises(RosterNotFound, match="no 40k roster named 'marines'"):
        await store.rosters.get("u1", "40k", "marines")
    with pytest.raises(RosterNotFound):
        await store.rosters.delete("u1", "40k", "marines")


async def test_private_rosters_stay_private_and_shared_ones_reach_the_guild(store: Store) -> None:
    await store.rosters.save("u1", MARINES)
    await store.rosters.save("u1", ORKS, guild_id="g1")
    with pytest.raises(RosterNotFound):
        await store.rosters.get("u2", "40k", "marines", guild_id="g1")
    assert (await store.rosters.get("u2", "40k", "orks", guild_id="g1")).owner == "u1"
    with pytest.raises(RosterNotFound):
        await store.rosters.get("u2", "40k", "orks", guild_id="g2")
    assert [r.name for r in await store.rosters.visible_to("u1")] == ["marines", "orks"]
    assert [r.name for r in await store.rosters.visible_to("u2", guild_id="g1")] == ["orks"]
    assert await store.rosters.visible_to("u2") == []
    # Your own roster of a name comes before a shared one.
    await store.rosters.save("u2", RosterInput("40k", "orks", "5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"))
    assert (await store.rosters.get("u2", "40k", "orks", guild_id="g1")).owner == "u2"


async def test_an_import_is_all_or_nothing(store: Store) -> None:
    await store.rosters.save("u1", ORKS)
    with pytest.raises(RosterExists):
        await store.rosters.save_many("u1", [MARINES, ORKS, DUELLIST])
    assert [r.name for r in await store.rosters.visible_to("u1")] == ["orks"]
    saved = await store.rosters.save_many("u1", [MARINES, ORKS, DUELLIST], replace=True)
    assert len(saved) == 3


async def test_an_import_interrupted_midway_leaves_nothing_half_written(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = rosters_module._save_in
    calls = 0

    async def failing(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise ConnectionError("the connection dropped in the middle of the import")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rosters_module, "_save_in", failing)
    with pytest.raises(StorageError, match="Cannot reach") as raised:  # the store words every failure under it
        await store.rosters.save_many("u1", [MARINES, ORKS, DUELLIST])
    assert isinstance(raised.value.__cause__, ConnectionError)
    monkeypatch.setattr(rosters_module, "_save_in", real)
    assert await store.rosters.visible_to("u1") == []
