"""What `verify` and the leagues trust of a record resolved from a challenge (issue 24's review), on both backends,
its rows tampered with in SQL: the reviewer's consistent rewrite of the record and its agreement, a commitment set
to NULL, the challenge's row changed, the sides swapped under the same seed, the agreement stripped, the challenge's
row deleted; what the privacy tools do to a challenge and its record; and a terminal agreement, which a league that
requires agreement does not count."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from bot.access import OPERATOR, Actor
from bot.challenges.commitment import commitment, draw_salt
from bot.challenges.service import resolution
from bot.leagues.errors import LeagueError
from bot.storage import Store
from bot.verification import Verdict, verify
from tests.bot.leagues.agreed_records import GAME, agreed_combat

GUILD = "g1"
ANN, BOB = "811111111111111111", "822222222222222222"
OTHER_SIDE = "3x Gretchin: WS2 S2 T2 W1 I2 A1 Ld5 Sv-"


async def agreed(store: Store) -> tuple[int, int]:
    """A record both players agreed to on Discord, as a real challenge resolves it: (record id, challenge id)."""
    record_id = await agreed_combat(store, ANN, BOB, GUILD)
    stored = await store.records.get(record_id, actor=OPERATOR)
    return record_id, json.loads(stored.agreed_json or "{}")["challenge_id"]


async def execute(store: Store, sql: str, **values: object) -> None:
    async with store.engine.begin() as connection:
        await connection.execute(text(sql), values)


async def rewrite(store: Store, record_id: int, *, seed: int, keep_commitment: bool = True, **inputs: str) -> str:
    """The reviewer's rewrite: a new seed, the report re-run from it (with ``inputs`` changed), a new salt and its
    commitment written into the record's column and its agreement alike (NULL in the column unless
    ``keep_commitment``). The new commitment."""
    stored = await store.records.get(record_id, actor=OPERATOR)
    agreement = json.loads(stored.agreed_json or "{}")
    report = resolution(GAME.id, agreement["inputs"] | inputs, seed)
    salt = draw_salt()
    committed = commitment(seed, salt)
    agreement["commitment"] = committed
    await execute(store, "UPDATE combat_records SET report_json = :report, seed = :seed, salt = :salt, "
                  "commitment = :committed, agreed_json = :agreed WHERE id = :id", report=report.to_json(indent=None),
                  seed=seed, salt=salt, committed=committed if keep_commitment else None,
                  agreed=json.dumps(agreement), id=record_id)  # fmt: skip
    return committed


async def strict_league(store: Store) -> int:
    league = await store.leagues.create(GUILD, "Remote Crusade", GAME.id, actor=Actor("org", guild=GUILD),
                                        require_agreed=True)  # fmt: skip
    for player in (ANN, BOB):
        await store.leagues.join(league.id, actor=Actor(player, guild=GUILD))
    return league.id


async def counted(store: Store, record_id: int) -> bool:
    """Whether a league counts the record as agreed: marked so, and taken by a league that requires agreement."""
    marked = record_id in await store.matches.agreements([record_id])
    league_id = await strict_league(store)
    try:
        await store.matches.report(league_id, actor=Actor(ANN, guild=GUILD), opponent=BOB, result="win",
                                   combats=[record_id])  # fmt: skip
    except LeagueError:
        assert not marked
        return False
    assert marked
    return True


async def test_an_untouched_agreed_record_verifies_against_its_challenge_and_counts(store: Store) -> None:
    record_id, challenge_id = await agreed(store)
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.IDENTICAL, verification
    assert f"challenge #{challenge_id} holds the same seed, salt, commitment and sides" in verification.message
    assert await counted(store, record_id)


async def test_the_reviewers_consistent_rewrite_of_record_and_agreement_does_not_verify(store: Store) -> None:
    record_id, challenge_id = await agreed(store)
    before = await store.records.get(record_id, actor=OPERATOR)
    forged = await rewrite(store, record_id, seed=(before.report.seed + 1) % 2**53)
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert "does NOT match the dice committed before they were rolled" in verification.message
    assert f"the commitment: the record's {forged} is not the {before.commitment} challenge #{challenge_id} showed " \
           "when it was made" in verification.differences  # fmt: skip
    assert any(line.startswith("the seed: the record's seed") and f"challenge #{challenge_id}" in line
               for line in verification.differences)  # fmt: skip
    assert any(line.startswith("the salt:") for line in verification.differences)
    assert not await counted(store, record_id)


async def test_an_agreed_record_whose_commitment_was_set_to_null_does_not_verify_nor_count(store: Store) -> None:
    record_id, _ = await agreed(store)
    before = await store.records.get(record_id, actor=OPERATOR)
    await rewrite(store, record_id, seed=(before.report.seed + 7) % 2**53, keep_commitment=False)
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert verification.message == f"Record #{record_id} does NOT verify: agreed, but its commitment is missing: " \
                                   "it has been altered."  # fmt: skip
    assert "the commitment: agreed, but its commitment is missing" in verification.differences
    assert not await counted(store, record_id)
    # The commitment alone removed, nothing else touched: the same.
    record_id, _ = await agreed(store)
    await execute(store, "UPDATE combat_records SET commitment = NULL, salt = NULL WHERE id = :id", id=record_id)
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert "the commitment: agreed, but its commitment and salt are missing" in verification.differences


@pytest.mark.parametrize("column", ["commitment", "seed", "salt"])
async def test_the_challenges_row_changed_is_named(store: Store, column: str) -> None:
    record_id, challenge_id = await agreed(store)
    changed = {"commitment": "'" + "cd" * 32 + "'", "seed": "seed + 1", "salt": "'" + "ef" * 32 + "'"}[column]
    await execute(store, f"UPDATE challenges SET {column} = {changed} WHERE id = :id", id=challenge_id)
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    (line,) = verification.differences
    assert line.startswith(f"the {column}: the record's") and f"challenge #{challenge_id}" in line
    assert not await counted(store, record_id)


async def test_sides_swapped_under_the_committed_seed_do_not_verify(store: Store) -> None:
    """The seed kept (it still hashes to the commitment), the defender made weaker and the report re-run."""
    record_id, challenge_id = await agreed(store)
    stored = await store.records.get(record_id, actor=OPERATOR)
    forged = resolution(GAME.id, {"attacker": GAME.example_attacker, "defender": OTHER_SIDE}, stored.report.seed)
    await execute(store, "UPDATE combat_records SET report_json = :report, defender_spec = :spec WHERE id = :id",
                  report=forged.to_json(indent=None), spec=forged.inputs.defender, id=record_id)  # fmt: skip
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert verification.differences == (f"the sides: the record's sides or options are not those both players "
                                        f"accepted in challenge #{challenge_id}",)  # fmt: skip


async def test_a_record_stripped_of_its_agreement_is_still_known_by_its_challenge(store: Store) -> None:
    record_id, challenge_id = await agreed(store)
    before = await store.records.get(record_id, actor=OPERATOR)
    seed = (before.report.seed + 3) % 2**53
    report = resolution(GAME.id, {"attacker": GAME.example_attacker, "defender": GAME.example_defender}, seed)
    await execute(store, "UPDATE combat_records SET report_json = :report, seed = :seed, salt = NULL, "
                  "commitment = NULL, agreed_json = NULL WHERE id = :id", report=report.to_json(indent=None),
                  seed=seed, id=record_id)  # fmt: skip
    verification = verify(await store.records.get(record_id, actor=OPERATOR))
    assert verification.verdict is Verdict.ALTERED
    assert f"the agreement: the record has none, though it was resolved from challenge #{challenge_id}" in \
        verification.differences  # fmt: skip


async def test_a_record_whose_challenge_row_is_gone_says_so_plainly(store: Store) -> None:
    """The privacy tools never delete a challenge without its record (next test); a row deleted by hand leaves the
    record checked against its own agreement only, and verify says so."""
    record_id, challenge_id = await agreed(store)
    await execute(store, "DELETE FROM challenges WHERE id = :id", id=challenge_id)
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.challenge is None
    verification = verify(stored)
    assert verification.verdict is Verdict.IDENTICAL
    assert f"Challenge #{challenge_id} it was agreed in is no longer stored" in verification.message
    assert "compare the commitment with the one the challenge showed in its channel" in verification.message


async def test_erasure_deletes_a_challenge_only_with_its_record(store: Store) -> None:
    """Erasing the opponent keeps the challenge and the record (their id rewritten alike in both): it still verifies
    against its challenge. Erasing the challenger deletes the record and the challenge together, as deleting the
    server does."""
    record_id, challenge_id = await agreed(store)
    await store.privacy.delete(user=BOB)
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.challenge is not None and stored.challenge.id == challenge_id
    assert verify(stored).verdict is Verdict.IDENTICAL
    await store.privacy.delete(user=ANN)
    assert await store.challenges.get(challenge_id) is None
    assert record_id not in {r.id for r in await store.records.history(actor=OPERATOR)}
    record_id, challenge_id = await agreed(store)
    await store.privacy.delete(guild=GUILD)
    assert await store.challenges.get(challenge_id) is None
    assert record_id not in {r.id for r in await store.records.history(actor=OPERATOR)}


async def test_a_terminal_agreement_is_not_counted_by_a_league(store: Store) -> None:
    """`referee accept` is run by whoever holds the file: its agreement proves the seed was fixed in advance, not
    that the opponent agreed. It verifies; a league requiring agreement does not count it, nor marks it."""
    record_id, _ = await agreed(store)
    stored = await store.records.get(record_id, actor=OPERATOR)
    agreement = json.loads(stored.agreed_json or "{}") | {"by": "terminal"}
    await execute(store, "UPDATE combat_records SET agreed_json = :agreed WHERE id = :id",
                  agreed=json.dumps(agreement), id=record_id)  # fmt: skip
    assert verify(await store.records.get(record_id, actor=OPERATOR)).verdict is Verdict.IDENTICAL
    league_id = await strict_league(store)
    with pytest.raises(LeagueError, match=f"#{record_id} was accepted in the terminal"):
        await store.matches.report(league_id, actor=Actor(ANN, guild=GUILD), opponent=BOB, result="win",
                                   combats=[record_id])  # fmt: skip
    assert await store.matches.agreements([record_id]) == {}
