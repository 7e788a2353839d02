"""Combat slugs on both backends: every record gets its own random slug, known before the write; the migration gives
the records already stored one each; a slug finds its record, a guessed id or a near miss finds nothing."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from bot.access import OPERATOR
from bot.storage import Store
from bot.storage.db import alembic_config, create_engine
from bot.storage.records import RecordRequest
from tests.bot.storage.test_records import a_report


async def test_every_record_gets_a_random_slug_known_before_the_write(store: Store) -> None:
    single = await store.records.add(a_report(1), requested_by="u1", guild_id="g1")
    chosen = await store.records.add(a_report(2), requested_by="u1", guild_id="g1", slug="chosen-by-the-writer")
    requests = [RecordRequest(a_report(n), requested_by="u2", guild_id="g1") for n in (3, 4)]
    many = await store.records.add_many(requests)
    slugs = {record_id: (await store.records.get(record_id, actor=OPERATOR)).slug for record_id in (single, *many)}
    assert [slugs[i] for i in many] == [r.slug for r in requests]  # the bot knows them without a query
    assert (await store.records.get(chosen, actor=OPERATOR)).slug == "chosen-by-the-writer"
    assert len(set(slugs.values())) == 3 and all(len(slug) == 22 for slug in slugs.values())  # 128 bits each
    for record_id, slug in slugs.items():
        found = await store.records.by_slug(slug)
        assert found is not None and found.id == record_id and found.slug == slug
    for guess in (str(single), slugs[single][:-1], slugs[single].upper(), "", "x" * 200):
        assert await store.records.by_slug(guess) is None


async def test_the_migration_gives_each_stored_record_its_own_slug(empty_url: str) -> None:
    engine = create_engine(empty_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0007"))
            for n in range(3):
                await connection.execute(
                    text(
                        "INSERT INTO combat_records (game, attacker_spec, defender_spec, options_json, seed, "
                        "engine_version, report_json, outcome, winner, requested_by, guild_id, private, created_at) "
                        f"VALUES ('40k', 'a', 'd', '{{}}', {n}, '0.1.0', '{{}}', 'x', 'attacker', 'u1', 'g1', "
                        "false, CURRENT_TIMESTAMP)"
                    )
                )
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
            slugs = (await connection.execute(text("SELECT slug FROM combat_records"))).scalars().all()
    finally:
        await engine.dispose()
    assert len(slugs) == 3 and len(set(slugs)) == 3 and all(slug and len(slug) == 22 for slug in slugs)
