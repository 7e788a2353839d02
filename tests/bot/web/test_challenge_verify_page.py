"""A challenge's record on its web page (issue 24's review): verify's cached answer is re-checked when the challenge's
row or the record's commitment is edited, not only its report."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient
from sqlalchemy import text

from bot.access import OPERATOR
from bot.server_settings.model import SERVER, WEB
from bot.storage import Store
from tests.bot.leagues.agreed_records import agreed_combat
from tests.bot.web.conftest import Serve

GUILD = "100"


async def verify_page(client: TestClient[Any, Any], slug: str) -> str:
    answer = await client.get(f"/c/{slug}/verify")
    assert answer.status == 200
    return await answer.text()


async def test_verify_rechecks_when_the_challenge_row_is_edited(store: Store, serve: Serve) -> None:
    record_id = await agreed_combat(store, "111", "222", GUILD)
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.challenge is not None
    await store.settings.set(SERVER, GUILD, GUILD, WEB, "public", "1")
    client = await serve()
    body = await verify_page(client, stored.slug)
    assert "Verify: Identical" in body and f"challenge #{stored.challenge.id} holds the same seed" in body
    async with store.engine.begin() as connection:
        await connection.execute(text("UPDATE challenges SET commitment = :c WHERE id = :id"),
                                 {"c": "cd" * 32, "id": stored.challenge.id})  # fmt: skip
    body = await verify_page(client, stored.slug)
    assert "Verify: Altered" in body and f"challenge #{stored.challenge.id} showed when it was made" in body
