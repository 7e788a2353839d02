"""Leagues that require agreed combats (issue 24), on both backends: the setting (migration 0010) at creation, in the
settings and their audit log; a report or an organiser's entry listing a combat not agreed, or agreed between other
players, refused with nothing stored; an agreed one (a real challenge resolved into a record) accepted."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.access import OPERATOR, Actor
from bot.leagues.errors import LeagueError
from bot.storage import Store
from bot.storage.models import CombatRecord, LeagueEvent, LeagueMatch
from tests.bot.leagues import agreed_records

GUILD = "g1"
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
ORGANISER = Actor("org", guild=GUILD)
ANN, BOB, CID = Actor("ann", guild=GUILD), Actor("bob", guild=GUILD), Actor("cid", guild=GUILD)
GAME = agreed_records.GAME


async def agreed_combat(store: Store, challenger: str, opponent: str) -> int:
    return await agreed_records.agreed_combat(store, challenger, opponent, GUILD)


async def plain_combat(store: Store, by: str) -> int:
    return await agreed_records.lone_combat(store, by, GUILD)


async def strict_league(store: Store, *, require_agreed: bool = True) -> int:
    league = await store.leagues.create(GUILD, "Remote Crusade", GAME.id, actor=ORGANISER, at=T0,
                                        require_agreed=require_agreed)  # fmt: skip
    for player in (ANN, BOB, CID):
        await store.leagues.join(league.id, actor=player, at=T0)
    return league.id


async def stored_matches(store: Store) -> int:
    async with store.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(LeagueMatch)) or 0)


async def test_the_setting_is_kept_changed_and_logged(store: Store) -> None:
    league_id = await strict_league(store)
    league = await store.leagues.get(league_id, actor=OPERATOR)
    assert league.require_agreed and league.settings()["require_agreed"] is True
    [created] = [e for e in await store.leagues.audit(league_id, actor=OPERATOR) if e.kind == "league-created"]
    assert created.after is not None and created.after["require_agreed"] is True
    changed = await store.leagues.update_settings(league_id, actor=ORGANISER, require_agreed=False)
    assert not changed.require_agreed
    [latest, *_] = await store.leagues.audit(league_id, actor=OPERATOR)
    assert latest.changes() == [("require_agreed", True, False)]
    untouched = await store.leagues.update_settings(league_id, actor=ORGANISER, confirm_hours=24)
    assert not untouched.require_agreed  # a setting not given is left as it is
    plain = await store.leagues.create(GUILD, "Table League", GAME.id, actor=ORGANISER)
    assert not plain.require_agreed  # the default: any combat counts, as before


async def test_a_report_with_an_unagreed_combat_is_refused_naming_it_and_nothing_is_stored(store: Store) -> None:
    league_id = await strict_league(store)
    agreed = await agreed_combat(store, "ann", "bob")
    plain = await plain_combat(store, "ann")
    events_before = len(await store.leagues.audit(league_id, actor=OPERATOR, limit=500))
    with pytest.raises(LeagueError) as caught:
        await store.matches.report(league_id, actor=ANN, opponent="bob", result="win", combats=[agreed, plain])
    assert f"#{plain} was not agreed" in caught.value.message and f"#{agreed}" not in caught.value.message
    assert await stored_matches(store) == 0
    assert len(await store.leagues.audit(league_id, actor=OPERATOR, limit=500)) == events_before


async def test_an_agreed_combat_counts_and_is_known_as_agreed(store: Store) -> None:
    league_id = await strict_league(store)
    agreed = await agreed_combat(store, "bob", "ann")  # challenged by the opponent: either way round
    outcome = await store.matches.report(league_id, actor=ANN, opponent="bob", result="win", combats=f"#{agreed}")
    assert outcome.kind == "created" and outcome.match.combats == (agreed,)
    plain = await plain_combat(store, "ann")
    found = await store.matches.agreements([agreed, plain, 999])
    assert set(found) == {agreed}
    assert (found[agreed].challenger, found[agreed].opponent) == ("bob", "ann")
    assert found[agreed].opponent_ok_at is not None


async def test_a_combat_agreed_between_other_players_is_refused_naming_them(store: Store) -> None:
    league_id = await strict_league(store)
    theirs = await agreed_combat(store, "ann", "cid")
    with pytest.raises(LeagueError) as caught:
        await store.matches.report(league_id, actor=ANN, opponent="bob", result="win", combats=[theirs])
    assert f"#{theirs} was agreed between ann and cid" in caught.value.message
    assert await stored_matches(store) == 0


async def test_a_report_listing_no_combats_is_taken(store: Store) -> None:
    league_id = await strict_league(store)
    outcome = await store.matches.report(league_id, actor=ANN, opponent="bob", result="draw")
    assert outcome.kind == "created" and outcome.match.combats == ()


async def test_an_organisers_entry_is_held_to_the_same_rule(store: Store) -> None:
    league_id = await strict_league(store)
    plain = await plain_combat(store, "ann")
    with pytest.raises(LeagueError, match=f"#{plain} was not agreed"):
        await store.matches.enter(league_id, actor=ORGANISER, player="ann", opponent="bob", result="win",
                                  combats=[plain])  # fmt: skip
    assert await stored_matches(store) == 0
    agreed = await agreed_combat(store, "ann", "bob")
    entered = await store.matches.enter(league_id, actor=ORGANISER, player="bob", opponent="ann", result="loss",
                                        combats=[agreed])  # fmt: skip
    assert entered.combats == (agreed,) and entered.status == "confirmed"


async def test_a_league_not_requiring_it_takes_any_combat(store: Store) -> None:
    league_id = await strict_league(store, require_agreed=False)
    plain = await plain_combat(store, "ann")
    outcome = await store.matches.report(league_id, actor=ANN, opponent="bob", result="win", combats=[plain])
    assert outcome.match.combats == (plain,)


async def test_an_unreadable_agreement_reads_as_nobody_and_is_refused(store: Store) -> None:
    """A record whose agreement was edited into something else (or names nobody) never counts as agreed between
    the players."""
    league_id = await strict_league(store)
    agreed = await agreed_combat(store, "ann", "bob")
    async with store.sessions.begin() as session:
        row = await session.get(CombatRecord, agreed)
        assert row is not None
        row.agreed_json = json.dumps(["not", "an", "object"])
    with pytest.raises(LeagueError, match=f"the dice of #{agreed} no longer match the commitment"):
        await store.matches.report(league_id, actor=ANN, opponent="bob", result="win", combats=[agreed])
    async with store.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(LeagueEvent).where(
            LeagueEvent.kind == "reported")) == 0  # fmt: skip
