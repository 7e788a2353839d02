"""Deleting a user leaves their id nowhere: every column of every table is scanned for it, on both backends.

The seeding goes through the store's public methods only, putting the user's id everywhere the application can
put it: records they asked for and records naming them, notes by them and about them, rosters, rolls, leagues
they created, organised, started and ended seasons of, matches they played, entered and decided, audit reasons
and notes that mention them (``<@id>``, ``<@!id>`` or the bare id), unit names others typed, the cached
standings, the display names cached for league charts and CSV files (theirs, and another's holding the id), their
preferences and the server settings they changed.
The scan iterates ``Base.metadata``, so a column added later is scanned without anyone listing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Text, cast, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import OPERATOR, Actor
from bot.challenges.commitment import commitment, draw_salt
from bot.server_settings.model import CHANNEL, PREF_PRIVATE, PREF_STEPS, SERVER, USER, VISIBILITY, house_key
from bot.storage import Store, privacy
from bot.storage.models import Base, LeagueEvent
from bot.storage.rosters import RosterInput
from bot.verification import Verdict, verify
from rules_core import resolve
from rules_core.report import Report

VICTIM = "811111111111111111"  # a Discord snowflake: the user who asks to be forgotten
P2, P3, ORG = "822222222222222222", "833333333333333333", "844444444444444444"
G1, G2 = "900000000000000001", "900000000000000002"
ORKS = "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def combat(attacker: str, seed: int, defender: str = ORKS) -> Report:
    return resolve("40k", attacker, defender, seed=seed, charge_distance=4)


async def holding(store: Store, needle: str) -> set[str]:
    """Every ``table.column`` of the schema with a value whose text holds ``needle`` (every value cast to text)."""
    found: set[str] = set()
    async with store.sessions() as session:
        for table in Base.metadata.sorted_tables:
            columns = list(table.columns)
            rows = (await session.execute(select(*(cast(column, Text) for column in columns)))).all()
            for row in rows:
                found |= {
                    f"{table.name}.{c.name}" for c, value in zip(columns, row, strict=True) if needle in (value or "")
                }
    return found


@dataclass
class Seeded:
    records: dict[str, int]
    crusade: int
    ladder: int


async def seed_everywhere(store: Store) -> Seeded:
    records = {
        "victims": await store.records.add(
            combat("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 1),
            requested_by=VICTIM,
            opponent=P2,
            guild_id=G1,
            channel_id="c1",
        ),
        "names_victim": await store.records.add(
            combat("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 2), requested_by=P2, opponent=VICTIM, guild_id=G1
        ),
        # a unit name someone else typed, with the victim's id in it: in the specs and all through the report
        "unit_named": await store.records.add(
            combat(
                f"1x Guard {VICTIM}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 3, f"6x Ork_{VICTIM}: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
            ),
            requested_by=P3,
            guild_id=G1,
        ),
        "others": await store.records.add(
            combat("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 4), requested_by=P3, opponent=P2, guild_id=G2
        ),
    }
    records["continues_victims"] = await store.records.add(
        combat("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 5), requested_by=P2, guild_id=G1,
        continues=records["victims"],
    )  # fmt: skip
    await store.records.add_note(
        records["names_victim"], "note", actor=Actor(VICTIM, operator=True), reason="agreed at the table"
    )
    await store.records.add_note(
        records["names_victim"], "void", actor=Actor(P2, operator=True), reason=f"<@{VICTIM}> says re-rolled"
    )
    await store.records.add_note(
        records["others"], "note", actor=Actor(P3, operator=True), reason=f"<@!{VICTIM}> watched; ask {VICTIM}"
    )
    await store.records.add_note(
        records["victims"], "note", actor=Actor(P2, operator=True), reason="kept with the record"
    )

    await store.rosters.save(VICTIM, RosterInput("40k", "mine", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"), guild_id=G1)
    await store.rosters.save(
        P2, RosterInput("40k", f"vs {VICTIM}", f"1x Guard {VICTIM}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                        description=f"borrowed from <@{VICTIM}>"), guild_id=G1,
    )  # fmt: skip
    await store.records.add_roll("2d6", "2d6 (3, 4) = `7`", 7, requested_by=VICTIM, guild_id=G1)
    await store.records.add_roll(
        f"1d6+{VICTIM}", f"1d6 (5) + {VICTIM} = `{5 + int(VICTIM)}`", 5 + int(VICTIM), requested_by=P2, guild_id=G1
    )

    victim, p2, p3, org = (Actor(user, guild=G1) for user in (VICTIM, P2, P3, ORG))
    # A league the victim created, organised and ran seasons of, and played in.
    crusade = (await store.leagues.create(G1, f"Crusade {VICTIM}", "40k", actor=victim)).id
    await store.leagues.add_organiser(crusade, ORG, actor=victim)
    for user in (VICTIM, P2, P3):
        await store.leagues.join(crusade, actor=Actor(user, guild=G1))
    await store.matches.enter(crusade, actor=org, player=VICTIM, opponent=P2, result="win", notes=f"<@{VICTIM}> won")
    await store.leagues.standings(crusade, actor=OPERATOR)  # season 1's table is cached, with the victim's row
    await store.leagues.start_season(crusade, actor=victim)  # season 1 ended by them, season 2 started by them
    await store.leagues.standings(crusade, actor=OPERATOR, season=1)
    await store.matches.report(
        crusade, actor=victim, opponent=P2, result="win", score=f"2-1 <@{VICTIM}>",
        combats=[records["victims"], records["names_victim"]],  # record ids, never user ids: kept as they are
    )  # fmt: skip
    confirmed = (await store.matches.in_league(crusade, actor=OPERATOR, statuses=["pending"]))[0]
    await store.matches.confirm(confirmed.id, actor=p2)
    await store.matches.report(crusade, actor=p3, opponent=VICTIM, result="win", notes=f"{VICTIM} brought proxies")
    disputed = (await store.matches.in_league(crusade, actor=OPERATOR, statuses=["pending"]))[0]
    await store.matches.dispute(disputed.id, actor=victim, reason=f"<@{VICTIM}> says it was a draw")
    await store.matches.resolve(disputed.id, "draw", actor=org, reason=f"asked <@!{VICTIM}> and <@{P3}>")
    await store.matches.report(crusade, actor=p2, opponent=P3, result="loss", notes=f"<@{VICTIM}> refereed")
    await store.matches.report(crusade, actor=p3, opponent=P2, result="draw")  # a conflict: reason names p3 only
    await store.matches.report(crusade, actor=p3, opponent=VICTIM, result="win")
    await store.matches.report(crusade, actor=victim, opponent=P3, result="loss")  # merged: "<@victim> reported..."
    await store.leagues.update_settings(crusade, actor=victim, name=f"Crusade II {VICTIM}")
    await store.leagues.standings(crusade, actor=OPERATOR)

    # A league someone else created, where the victim is an organiser who enters, voids, corrects and ends.
    ladder = (await store.leagues.create(G1, "Ladder", "40k", actor=org)).id
    await store.leagues.add_organiser(ladder, VICTIM, actor=org)
    for user in (P2, P3, ORG):
        await store.leagues.join(ladder, actor=Actor(user, guild=G1))
    entered = await store.matches.enter(ladder, actor=victim, player=P2, opponent=P3, result="win")
    await store.matches.correct(entered.id, actor=victim, result="draw", reason=f"{VICTIM}: scores swapped")
    voided = await store.matches.enter(ladder, actor=victim, player=P3, opponent=ORG, result="loss")
    await store.matches.void(voided.id, actor=victim, reason="entered twice")
    await store.leagues.standings(ladder, actor=OPERATOR)
    await store.leagues.end_season(ladder, actor=victim)
    await store.leagues.start_season(ladder, actor=org)
    # The display names cached for the chart and the CSV: the victim's own, and another's that holds their id.
    await store.leagues.remember_names(G1, {VICTIM: "Vic the Bold", P2: f"fan of {VICTIM}"})
    await store.leagues.remember_names(G2, {VICTIM: "Vic"})
    # Settings: their own preferences (changed twice), and a server's settings they changed as a manager.
    await store.settings.set(USER, VICTIM, None, PREF_PRIVATE, True, VICTIM)
    await store.settings.set(USER, VICTIM, None, PREF_STEPS, "full", VICTIM)
    await store.settings.set(USER, VICTIM, None, PREF_STEPS, "compact", VICTIM)
    await store.settings.set(SERVER, G1, G1, house_key("epic", "result_dice"), "sum", VICTIM)
    await store.settings.set(CHANNEL, "c1", G1, VISIBILITY, "private", VICTIM)
    await store.settings.set(CHANNEL, "c1", G1, VISIBILITY, "public", P2)
    # Challenges (dice committed in advance): one they made (theirs: deleted), one made to them and resolved (its
    # record's agreement names them), with their id typed in the inputs too.
    later = datetime.now(UTC) + timedelta(hours=1)
    await challenge(store, seed=11, challenger=VICTIM, opponent=P2, expires_at=later)
    made_to_them = await challenge(store, seed=12, challenger=P2, opponent=VICTIM, expires_at=later)
    records["agreed_with_victim"] = await store.challenges.resolve(
        made_to_them, combat(f"5x Marine {VICTIM}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 12),
        agreed={"challenger": P2, "opponent": VICTIM, "commitment": made_to_them.commitment},
        requested_by=P2, opponent=VICTIM,
    )  # fmt: skip
    return Seeded(records, crusade, ladder)


async def challenge(store: Store, *, seed: int, challenger: str, opponent: str, expires_at: datetime) -> Any:
    salt = draw_salt()
    inputs = {"attacker": f"5x Marine {VICTIM}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "defender": ORKS, "options": {}}
    return await store.challenges.create(
        game="40k", kind="assault", inputs=inputs, seed=seed, salt=salt, commitment=commitment(seed, salt),
        challenger_id=challenger, opponent_id=opponent, guild_id=G1, channel_id="c1", expires_at=expires_at,
    )  # fmt: skip


# Where the seeding above puts the victim's id: checked before the deletion, so the scan is known to see them.
SEEDED = {
    "combat_records": ("requested_by", "opponent", "attacker_spec", "defender_spec", "report_json", "agreed_json"),
    "challenges": ("challenger_id", "opponent_id", "inputs_json"),
    "record_events": ("actor", "reason"),
    "rosters": ("owner", "name", "spec", "description"),
    "dice_rolls": ("requested_by", "expression", "result"),
    "leagues": ("name", "name_key", "created_by"),
    "league_organisers": ("user_id", "added_by"),
    "league_players": ("user_id",),
    "league_seasons": ("started_by", "ended_by"),
    "league_matches": ("reporter_id", "opponent_id", "score", "notes", "pair_key", "created_by", "decided_by"),
    "league_events": ("actor", "reason", "before_json", "after_json"),
    "league_snapshots": ("data_json",),
    "display_names": ("user_id", "name"),
    "settings": ("scope_id", "updated_by"),
    "settings_changes": ("scope_id", "actor"),
}
SEEDED_COLUMNS = {f"{table}.{column}" for table, columns in SEEDED.items() for column in columns}


async def test_deleting_a_user_leaves_their_id_in_no_column_of_any_table(store: Store) -> None:
    seeded = await seed_everywhere(store)
    assert await holding(store, VICTIM) >= SEEDED_COLUMNS
    others_before = {
        league: {
            row.player: (row.played, row.points) for row in (await store.leagues.standings(league, actor=OPERATOR)).rows
        }
        for league in (seeded.crusade, seeded.ladder)
    }
    crusade_season_1 = {
        row.player: row.points for row in (await store.leagues.standings(seeded.crusade, actor=OPERATOR, season=1)).rows
    }

    await store.privacy.delete(user=VICTIM)

    left = await holding(store, VICTIM)
    assert not left, f"the deleted user's id is still stored in {', '.join(sorted(left))}"
    # Everyone else's data is still there, and counts as before.
    for key in ("names_victim", "unit_named", "others", "continues_victims"):
        await store.records.get(seeded.records[key], actor=OPERATOR)
    assert [
        note.kind for note in (await store.records.get(seeded.records["names_victim"], actor=OPERATOR)).history
    ] == ["note", "void"]
    await store.rosters.get(P2, "40k", next(r.name for r in await store.rosters.visible_to(P2)))
    # The server's settings they made stay (the server's), their author anonymised; their preferences are gone.
    assert {(row.key, row.value) for row in await store.settings.rows_for_guild(G1)} == {
        (house_key("epic", "result_dice"), "sum"), (VISIBILITY, "public"),
    }  # fmt: skip
    audit = await store.settings.history(G1, limit=10)
    assert [c.actor.startswith("deleted-") for c in audit] == [False, True, True]
    assert await store.settings.rows_for_user(VICTIM) == []
    for league, before in others_before.items():
        rows = (await store.leagues.standings(league, actor=OPERATOR)).rows
        after = {row.player: (row.played, row.points) for row in rows}
        assert {p: v for p, v in after.items() if p in (P2, P3, ORG)} == {
            p: v for p, v in before.items() if p != VICTIM
        }
        if VICTIM in before:  # their games still count, under their pseudonym
            assert [v for p, v in after.items() if p.startswith("deleted-")] == [before[VICTIM]]
    season_1 = {
        row.player: row.points for row in (await store.leagues.standings(seeded.crusade, actor=OPERATOR, season=1)).rows
    }
    assert sorted(season_1.values()) == sorted(crusade_season_1.values()) and season_1[P2] == crusade_season_1[P2]


async def test_a_combat_whose_unit_names_were_rewritten_still_verifies(store: Store) -> None:
    """The specs and the report are rewritten together, so a re-run from the stored inputs gives the stored bytes."""
    seeded = await seed_everywhere(store)
    await store.privacy.delete(user=VICTIM)
    stored = await store.records.get(seeded.records["unit_named"], actor=OPERATOR)
    assert stored.report.inputs.attacker.startswith("1x Guard deleted-")
    assert verify(stored).verdict == Verdict.IDENTICAL


async def test_one_pseudonym_per_deleted_user_everywhere_and_two_users_never_share_one(store: Store) -> None:
    seeded = await seed_everywhere(store)
    await store.privacy.delete(user=VICTIM)
    league = await store.leagues.get(seeded.crusade, actor=OPERATOR)
    alias = league.created_by
    assert alias.startswith("deleted-") and alias in league.players
    note = (await store.records.get(seeded.records["names_victim"], actor=OPERATOR)).history
    assert (note[0].actor, note[1].reason) == (alias, f"{alias} says re-rolled")
    assert (await store.records.get(seeded.records["names_victim"], actor=OPERATOR)).opponent == alias
    await store.privacy.delete(user=P2)
    players = {row.player for row in (await store.leagues.standings(seeded.crusade, actor=OPERATOR)).rows}
    assert len({p for p in players if p.startswith("deleted-")}) == 2 and P3 in players


async def test_only_the_users_own_id_is_rewritten_in_text(store: Store) -> None:
    """A longer number holding the id, or another user's mention, is left as typed; a non-numeric id (the offline
    user, ``local``) is rewritten where it is mentioned (``<@local>``), never as a word of the text."""
    record = await store.records.add(combat("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 1), requested_by=P2)
    typed = f"9{VICTIM} and {VICTIM}0 are not {VICTIM}; <@{P3}> is not <@!{VICTIM}>"
    await store.records.add_note(record, "note", actor=Actor(P2, operator=True), reason=typed)
    await store.records.add_note(record, "note", actor=OPERATOR, reason="the local club; <@local> was there")
    await store.privacy.delete(user=VICTIM)
    await store.privacy.delete(user="local")
    first, second = (await store.records.get(record, actor=OPERATOR)).history
    one, other = first.reason.split(" are not ")[1].split("; ")[0], second.actor
    assert one.startswith("deleted-") and other.startswith("deleted-") and one != other
    assert first.reason == f"9{VICTIM} and {VICTIM}0 are not {one}; <@{P3}> is not {one}"
    assert second.reason == f"the local club; {other} was there"


async def test_a_deletion_that_fails_half_way_changes_nothing(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """One transaction: the records deleted and the rows rewritten before the failure are all back."""
    await seed_everywhere(store)
    before = await holding(store, VICTIM)
    history = await store.records.history(actor=OPERATOR)
    real = privacy._rewrite

    async def failing(session: AsyncSession, model: type[Base], *args: Any) -> int:
        if model is LeagueEvent:
            raise RuntimeError("the database went away")
        return await real(session, model, *args)

    monkeypatch.setattr(privacy, "_rewrite", failing)
    with pytest.raises(RuntimeError, match="went away"):
        await store.privacy.delete(user=VICTIM)
    assert await holding(store, VICTIM) == before
    assert await store.records.history(actor=OPERATOR) == history
