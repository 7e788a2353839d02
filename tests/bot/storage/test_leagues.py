"""Leagues on both backends: permissions for every mutating action, exactly-once state changes, the audit log,
seasons, duplicate reports, auto-confirmation and standings derived from the match log."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete

from bot.access import OPERATOR, Actor
from bot.leagues.errors import LeagueError, LeagueNotFound, MatchNotFound, MatchStateError, NotAllowed
from bot.leagues.model import LeagueInfo
from bot.leagues.standings import Points
from bot.storage import Store
from bot.storage.models import LeagueSnapshot

GUILD = "g1"
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
ORGANISER = Actor("org", guild=GUILD)
ANN, BOB, CID, DEE = (
    Actor("ann", guild=GUILD),
    Actor("bob", guild=GUILD),
    Actor("cid", guild=GUILD),
    Actor("dee", guild=GUILD),
)
MANAGER = Actor("boss", guild=GUILD, manager=True)
STRANGER = Actor("zed", guild=GUILD)


async def league_with_players(store: Store, *players: Actor, name: str = "Autumn Crusade") -> LeagueInfo:
    league = await store.leagues.create(GUILD, name, "40k", actor=ORGANISER, at=T0)
    for number, player in enumerate(players):
        await store.leagues.join(league.id, actor=Actor(player.user, guild=GUILD), at=T0 + timedelta(minutes=number))
    return await store.leagues.get(league.id, actor=OPERATOR)


async def test_a_league_is_created_named_once_per_server_and_found_by_name_or_id(store: Store) -> None:
    league = await store.leagues.create(GUILD, "  Autumn   Crusade ", "40K", actor=ORGANISER, at=T0)
    assert (league.name, league.game, league.points, league.confirm_hours) == ("Autumn Crusade", "40k", Points(), 72)
    assert (league.season, league.season_open, league.organisers, league.players) == (1, True, ("org",), ())
    assert (await store.leagues.find("autumn crusade", actor=ANN)).id == league.id
    assert (await store.leagues.find(f"#{league.id}", actor=ANN)).id == league.id
    with pytest.raises(LeagueNotFound):
        await store.leagues.find(str(league.id), actor=Actor("org", guild="another guild"))
    with pytest.raises(LeagueNotFound):  # the league's own organiser, acting from another server
        await store.leagues.get(league.id, actor=Actor("org", guild="another guild", manager=True))
    with pytest.raises(NotAllowed, match="own server"):
        await store.leagues.create(GUILD, "Raid", "40k", actor=Actor("ann", guild="another guild"))
    with pytest.raises(LeagueError, match="already has a league named"):
        await store.leagues.create(GUILD, "AUTUMN crusade", "epic", actor=ANN)
    other = await store.leagues.create(
        "g2", "Autumn Crusade", "epic", actor=Actor("ann", guild="g2")
    )  # another server: fine
    assert other.id != league.id
    with pytest.raises(LeagueError, match=r"not only digits"):
        await store.leagues.create(GUILD, "x" * 51, "40k", actor=ANN)
    with pytest.raises(LeagueError, match="not only digits"):
        await store.leagues.create(GUILD, "2026", "40k", actor=ANN)
    with pytest.raises(LeagueError, match="Unknown game"):
        await store.leagues.create(GUILD, "Chess club", "chess", actor=ANN)
    with pytest.raises(LeagueError, match="win >= draw >= loss"):
        await store.leagues.create(GUILD, "Odd", "40k", actor=ANN, points=Points(1, 3, 0))
    with pytest.raises(LeagueError, match="1 to 720 hours"):
        await store.leagues.create(GUILD, "Slow", "40k", actor=ANN, confirm_hours=0)


async def test_players_join_leave_and_come_back(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    assert league.players == ("ann", "bob")
    with pytest.raises(LeagueError, match="already in"):
        await store.leagues.join(league.id, actor=Actor("ann", guild=GUILD))
    assert (await store.leagues.leave(league.id, actor=Actor("ann", guild=GUILD))).players == ("bob",)
    with pytest.raises(LeagueError, match="not in"):
        await store.leagues.leave(league.id, actor=Actor("ann", guild=GUILD))
    assert (await store.leagues.join(league.id, actor=Actor("ann", guild=GUILD))).players == (
        "ann",
        "bob",
    )  # back in their old place


@pytest.mark.parametrize("who", [STRANGER, ANN])
async def test_only_organisers_and_server_managers_change_a_league(store: Store, who: Actor) -> None:
    league = await league_with_players(store, ANN, BOB)
    for change in (
        store.leagues.update_settings(league.id, actor=who, confirm_hours=24),
        store.leagues.add_organiser(league.id, "cid", actor=who),
        store.leagues.start_season(league.id, actor=who),
        store.leagues.end_season(league.id, actor=who),
        store.matches.enter(league.id, actor=who, player="bob", opponent="cid", result="win"),
    ):
        with pytest.raises(NotAllowed, match="organisers"):
            await change
    changed = await store.leagues.update_settings(league.id, actor=MANAGER, confirm_hours=24, points=Points(2, 1, 0))
    assert (changed.confirm_hours, changed.points) == (24, Points(2, 1, 0))
    assert (await store.leagues.add_organiser(league.id, "ann", actor=ORGANISER)).organisers == ("org", "ann")
    assert (await store.leagues.update_settings(league.id, actor=ANN, confirm_hours=48)).confirm_hours == 48
    [latest, *_] = await store.leagues.audit(league.id, actor=OPERATOR)
    assert (latest.kind, latest.actor, latest.before, latest.after) == (
        "settings-changed", "ann",
        {"name": "Autumn Crusade", "points": [2, 1, 0], "confirm_hours": 24, "require_agreed": False},
        {"name": "Autumn Crusade", "points": [2, 1, 0], "confirm_hours": 48, "require_agreed": False},
    )  # fmt: skip


async def test_a_report_is_confirmed_only_by_the_opponent_and_only_once(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    outcome = await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", score="3-1", at=T0)
    match = outcome.match
    assert (outcome.kind, match.status, match.confirm_by) == ("created", "pending", T0 + timedelta(hours=72))
    assert (await store.leagues.standings(league.id, actor=OPERATOR)).rows[0].played == 0  # pending games do not count
    with pytest.raises(NotAllowed, match="You reported match"):
        await store.matches.confirm(match.id, actor=ANN)
    with pytest.raises(NotAllowed, match="Only bob,"):
        await store.matches.confirm(match.id, actor=CID)
    with pytest.raises(NotAllowed, match="Only bob,"):
        await store.matches.confirm(match.id, actor=MANAGER)  # confirming is the opponent's word, not an organiser's
    confirmed = await store.matches.confirm(match.id, actor=BOB, at=T0 + timedelta(hours=1))
    assert (confirmed.status, confirmed.decided_by) == ("confirmed", "bob")
    with pytest.raises(MatchStateError, match="already confirmed"):
        await store.matches.confirm(match.id, actor=BOB)
    with pytest.raises(MatchStateError, match="already confirmed"):
        await store.matches.dispute(match.id, actor=BOB)
    table = {row.player: row for row in (await store.leagues.standings(league.id, actor=OPERATOR)).rows}
    assert (table["ann"].won, table["ann"].points, table["bob"].lost, table["bob"].points) == (1, 3, 1, 0)
    assert round(table["ann"].rating, 6) == 1516.0 and round(table["bob"].rating, 6) == 1484.0
    kinds = [entry.kind for entry in await store.leagues.audit(league.id, actor=OPERATOR, match_id=match.id)]
    assert kinds == ["confirmed", "reported"]
    with pytest.raises(MatchNotFound):
        await store.matches.confirm(9999, actor=BOB)


async def test_concurrent_confirmations_have_exactly_one_effect(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    match = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")).match
    results = await asyncio.gather(
        *(store.matches.confirm(match.id, actor=BOB) for _ in range(6)), return_exceptions=True
    )
    assert sum(not isinstance(result, BaseException) for result in results) == 1
    assert all(isinstance(result, MatchStateError) for result in results if isinstance(result, BaseException))
    assert [entry.kind for entry in await store.leagues.audit(league.id, actor=OPERATOR, match_id=match.id)] == [
        "confirmed",
        "reported",
    ]
    assert (await store.leagues.standings(league.id, actor=OPERATOR)).rows[0].played == 1


async def test_a_dispute_locks_the_match_until_a_neutral_organiser_resolves_it(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    await store.leagues.add_organiser(league.id, "cid", actor=ORGANISER)
    match = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")).match
    with pytest.raises(NotAllowed):
        await store.matches.dispute(match.id, actor=ANN)
    disputed = await store.matches.dispute(match.id, actor=BOB, reason="It was a draw")
    assert disputed.status == "disputed"
    with pytest.raises(MatchStateError, match="already disputed"):
        await store.matches.confirm(match.id, actor=BOB)
    assert await store.matches.confirm_due(at=T0 + timedelta(days=30)) == []  # a dispute never confirms itself
    with pytest.raises(NotAllowed, match="organisers"):
        await store.matches.resolve(match.id, "draw", actor=ANN)
    with pytest.raises(NotAllowed, match="organisers"):
        await store.matches.resolve(match.id, "draw", actor=STRANGER)
    await store.leagues.add_organiser(league.id, "bob", actor=ORGANISER)
    with pytest.raises(NotAllowed, match="You played match"):
        await store.matches.resolve(match.id, "draw", actor=BOB)  # an organiser who played it
    resolved = await store.matches.resolve(match.id, "draw", actor=CID, reason="Both agreed")
    assert (resolved.status, resolved.result, resolved.decided_by) == ("confirmed", "draw", "cid")
    with pytest.raises(MatchStateError):
        await store.matches.resolve(match.id, "win", actor=CID)
    [entry, *_] = await store.leagues.audit(league.id, actor=OPERATOR, match_id=match.id)
    assert (entry.kind, entry.actor, entry.reason) == ("dispute-resolved", "cid", "Both agreed")
    assert (entry.before or {})["status"] == "disputed" and (entry.before or {})["result"] == "win"
    assert (entry.after or {})["status"] == "confirmed" and (entry.after or {})["result"] == "draw"
    table = {row.player: row for row in (await store.leagues.standings(league.id, actor=OPERATOR)).rows}
    assert (table["ann"].drawn, table["bob"].drawn, table["ann"].points) == (1, 1, 1)


async def test_both_players_reporting_one_game_is_merged_or_flagged_never_counted_twice(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    first = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")).match
    merged = await store.matches.report(league.id, actor=BOB, opponent="ann", result="loss")
    assert (merged.kind, merged.match.id, merged.match.status) == ("merged", first.id, "confirmed")
    assert len(await store.matches.in_league(league.id, actor=OPERATOR)) == 1
    second = (await store.matches.report(league.id, actor=ANN, opponent="cid", result="win")).match
    clash = await store.matches.report(league.id, actor=CID, opponent="ann", result="win")
    assert (clash.kind, clash.match.id, clash.match.status) == ("conflict", second.id, "disputed")
    assert "as a win for them" in (await store.leagues.audit(league.id, actor=OPERATOR, match_id=second.id))[0].reason
    assert len(await store.matches.in_league(league.id, actor=OPERATOR)) == 2
    await store.matches.report(league.id, actor=BOB, opponent="cid", result="win")
    with pytest.raises(LeagueError, match="still waiting for their confirmation"):
        await store.matches.report(league.id, actor=BOB, opponent="cid", result="win")  # a second game waits


async def test_two_players_reporting_at_the_same_moment_make_one_match(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    for _ in range(3):
        outcomes = await asyncio.gather(
            store.matches.report(league.id, actor=ANN, opponent="bob", result="win"),
            store.matches.report(league.id, actor=BOB, opponent="ann", result="loss"),
        )
        assert sorted(outcome.kind for outcome in outcomes) == ["created", "merged"]
    assert [m.status for m in await store.matches.in_league(league.id, actor=OPERATOR)] == ["confirmed"] * 3
    assert (await store.leagues.standings(league.id, actor=OPERATOR)).rows[0].played == 3


async def test_unconfirmed_reports_confirm_themselves_after_the_window(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    await store.leagues.update_settings(league.id, actor=ORGANISER, confirm_hours=24)
    early = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", at=T0)).match
    late = (
        await store.matches.report(league.id, actor=CID, opponent="bob", result="draw", at=T0 + timedelta(hours=5))
    ).match
    assert await store.matches.confirm_due(at=T0 + timedelta(hours=23)) == []
    [done] = await store.matches.confirm_due(at=T0 + timedelta(hours=24))
    assert (done.id, done.status, done.decided_by) == (early.id, "confirmed", "auto")
    with pytest.raises(MatchStateError):
        await store.matches.confirm(early.id, actor=BOB)  # too late: it confirmed itself
    # A click and the sweep at the same moment: one effect.
    results = await asyncio.gather(
        store.matches.confirm(late.id, actor=BOB, at=T0 + timedelta(hours=29)),
        store.matches.confirm_due(at=T0 + timedelta(hours=29)),
        return_exceptions=True,
    )
    kinds = [entry.kind for entry in await store.leagues.audit(league.id, actor=OPERATOR, match_id=late.id)]
    assert kinds.count("confirmed") + kinds.count("auto-confirmed") == 1, (kinds, results)


async def test_void_and_correct_recompute_the_standings_and_keep_the_old_state(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    await store.leagues.add_organiser(league.id, "dee", actor=ORGANISER)
    one = await store.matches.enter(league.id, actor=ORGANISER, player="ann", opponent="bob", result="win", at=T0)
    two = await store.matches.enter(league.id, actor=ORGANISER, player="bob", opponent="cid", result="win",
                                   at=T0 + timedelta(hours=1))  # fmt: skip
    first = {
        row.player: (row.points, round(row.rating, 3))
        for row in (await store.leagues.standings(league.id, actor=OPERATOR)).rows
    }
    assert first["ann"] == (3, 1516.0) and first["bob"][0] == 3
    with pytest.raises(LeagueError, match="Say why"):
        await store.matches.void(one.id, actor=ORGANISER, reason="")
    with pytest.raises(NotAllowed):
        await store.matches.void(one.id, actor=ANN, reason="I lost really")
    corrected = await store.matches.correct(
        one.id, actor=Actor("dee", guild=GUILD), result="loss", score="1-3", reason="Swapped"
    )
    assert (corrected.result, corrected.score) == ("loss", "1-3")
    table = {row.player: row for row in (await store.leagues.standings(league.id, actor=OPERATOR)).rows}
    assert (table["ann"].points, table["bob"].points, table["bob"].won) == (0, 6, 2)
    await store.matches.void(two.id, actor=ORGANISER, reason="Entered twice")
    with pytest.raises(MatchStateError, match="already void"):
        await store.matches.void(two.id, actor=ORGANISER, reason="Again")
    with pytest.raises(MatchStateError):
        await store.matches.correct(two.id, actor=ORGANISER, result="win", reason="A void result stays void")
    table = {row.player: row for row in (await store.leagues.standings(league.id, actor=OPERATOR)).rows}
    assert (table["bob"].played, table["cid"].played, table["bob"].points) == (1, 0, 3)
    assert round(table["bob"].rating, 6) == 1516.0  # the voided game never happened, for ratings too
    [voided, corrected_entry, *_] = await store.leagues.audit(league.id, actor=OPERATOR)
    assert (voided.kind, (voided.before or {})["status"], (voided.after or {})["status"]) == (
        "voided",
        "confirmed",
        "void",
    )
    assert (corrected_entry.before or {})["result"] == "win" and (corrected_entry.after or {})["result"] == "loss"


async def test_organisers_enter_results_but_not_their_own_or_a_waiting_one(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, ORGANISER)
    with pytest.raises(NotAllowed, match="You played this game"):
        await store.matches.enter(league.id, actor=ORGANISER, player="org", opponent="ann", result="win")
    entered = await store.matches.enter(league.id, actor=MANAGER, player="org", opponent="ann", result="win")
    assert (entered.status, entered.source, entered.decided_by) == ("confirmed", "organiser", "boss")
    await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")
    with pytest.raises(LeagueError, match="waiting for confirmation"):
        await store.matches.enter(league.id, actor=ORGANISER, player="bob", opponent="ann", result="loss")
    with pytest.raises(LeagueError, match="not in"):
        await store.matches.enter(league.id, actor=ORGANISER, player="bob", opponent="zed", result="loss")


async def test_reports_need_two_players_of_an_open_season(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    with pytest.raises(NotAllowed, match="Join"):
        await store.matches.report(league.id, actor=STRANGER, opponent="ann", result="win")
    with pytest.raises(LeagueError, match="not in"):
        await store.matches.report(league.id, actor=ANN, opponent="zed", result="win")
    with pytest.raises(LeagueError, match="against yourself"):
        await store.matches.report(league.id, actor=ANN, opponent="ann", result="win")
    with pytest.raises(LeagueError, match="win, draw or loss"):
        await store.matches.report(league.id, actor=ANN, opponent="bob", result="victory")
    with pytest.raises(LeagueError, match="at most 500"):
        await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", notes="x" * 501)
    with pytest.raises(LeagueError, match="at most 30"):
        await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", score="9" * 31)
    await store.leagues.end_season(league.id, actor=ORGANISER)
    with pytest.raises(LeagueError, match="has already ended"):
        await store.leagues.end_season(league.id, actor=ORGANISER)
    with pytest.raises(LeagueError, match="Season 1 of Autumn Crusade has ended"):
        await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")


async def test_combats_are_real_records_and_count_for_one_match_only(store: Store) -> None:
    from rules_core import resolve

    league = await league_with_players(store, ANN, BOB, CID)
    report = resolve("40k", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "5x Ork: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+", seed=1)
    record = await store.records.add(report, requested_by="ann")
    with pytest.raises(LeagueError, match="no combat record #999"):
        await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", combats="999")
    with pytest.raises(LeagueError, match="record ids"):
        await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", combats="twelve")
    match = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", combats=f"#{record}")).match
    assert match.combats == (record,)
    with pytest.raises(LeagueError, match=f"Combat #{record} already counts for match #{match.id}"):
        await store.matches.report(league.id, actor=ANN, opponent="cid", result="win", combats=str(record))


async def test_a_new_season_keeps_the_players_and_starts_fresh_standings(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    await store.matches.enter(league.id, actor=ORGANISER, player="ann", opponent="bob", result="win", at=T0)
    waiting = (await store.matches.report(league.id, actor=BOB, opponent="ann", result="win", at=T0)).match
    started = await store.leagues.start_season(league.id, actor=ORGANISER, at=T0 + timedelta(days=1))
    assert (started.season, started.season_open, started.players) == (2, True, ("ann", "bob"))
    fresh = await store.leagues.standings(league.id, actor=OPERATOR)
    assert fresh.season == 2 and [(r.player, r.played, r.rating) for r in fresh.rows] == [
        ("ann", 0, 1500.0), ("bob", 0, 1500.0),
    ]  # fmt: skip
    await store.matches.confirm(waiting.id, actor=ANN)  # a game of season 1 confirmed later counts in season 1
    past = await store.leagues.standings(league.id, actor=OPERATOR, season=1)
    assert {row.player: row.played for row in past.rows} == {"ann": 2, "bob": 2}
    with pytest.raises(LeagueError, match="seasons 1 to 2"):
        await store.leagues.standings(league.id, actor=OPERATOR, season=3)


async def test_standings_are_served_from_a_snapshot_until_anything_changes(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    await store.matches.enter(league.id, actor=ORGANISER, player="ann", opponent="bob", result="draw", at=T0)
    first = await store.leagues.standings(league.id, actor=OPERATOR)
    again = await store.leagues.standings(league.id, actor=OPERATOR)
    assert (first.cached, again.cached) == (False, True)
    assert [row.to_dict() for row in again.rows] == [row.to_dict() for row in first.rows]
    await store.leagues.join(league.id, actor=Actor("cid", guild=GUILD))
    moved = await store.leagues.standings(league.id, actor=OPERATOR)
    assert not moved.cached and [row.player for row in moved.rows][-1] == "cid"


async def test_a_table_computed_before_a_change_is_never_saved_after_it(store: Store) -> None:
    """A slow reader's table, finished after the league moved on and its cached tables were dropped (as a user's
    deletion does, so that no table names them), is not saved: it would bring the old rows back."""
    league = await league_with_players(store, ANN, BOB)
    table = await store.leagues.standings(league.id, actor=OPERATOR)
    await store.leagues.join(league.id, actor=CID)  # the league moves on, and its cached tables go
    async with store.sessions.begin() as session:
        await session.execute(delete(LeagueSnapshot))
    await store.leagues._save_snapshot(league.id, table.season, table.version, table.rows)  # then the old one lands
    async with store.sessions() as session:
        assert await session.get(LeagueSnapshot, (league.id, table.season)) is None
    fresh = await store.leagues.standings(league.id, actor=OPERATOR)
    assert not fresh.cached and "cid" in [row.player for row in fresh.rows]


# Every mutating action on a match, tried by each kind of person: who may, and who is refused.
ROLES = {"non-participant": CID, "reporter": ANN, "opponent": BOB, "organiser": ORGANISER, "manager": MANAGER}
ALLOWED = {
    "confirm": {"opponent"},
    "dispute": {"opponent"},
    "resolve": {"organiser", "manager"},
    "void": {"organiser", "manager"},
    "correct": {"organiser", "manager"},
}


@pytest.mark.parametrize("action", sorted(ALLOWED))
@pytest.mark.parametrize("role", sorted(ROLES))
async def test_who_may_change_a_match(store: Store, action: str, role: str) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    match = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")).match
    if action == "resolve":
        await store.matches.dispute(match.id, actor=BOB)
    if action == "correct":
        await store.matches.confirm(match.id, actor=BOB)
    actor = ROLES[role]
    attempts = {
        "confirm": lambda: store.matches.confirm(match.id, actor=actor),
        "dispute": lambda: store.matches.dispute(match.id, actor=actor),
        "resolve": lambda: store.matches.resolve(match.id, "draw", actor=actor, reason="agreed"),
        "void": lambda: store.matches.void(match.id, actor=actor, reason="entered twice"),
        "correct": lambda: store.matches.correct(match.id, actor=actor, result="loss", reason="swapped"),
    }
    before = len(await store.leagues.audit(league.id, actor=OPERATOR))
    if role in ALLOWED[action]:
        changed = await attempts[action]()
        assert changed.decided_by in {actor.user, None} or action == "dispute"
        assert len(await store.leagues.audit(league.id, actor=OPERATOR)) == before + 1
    else:
        with pytest.raises(NotAllowed):
            await attempts[action]()
        assert (
            len(await store.leagues.audit(league.id, actor=OPERATOR)) == before
        )  # a refusal changes nothing and logs nothing
        assert (await store.matches.get(match.id, actor=OPERATOR)).status == {
            "resolve": "disputed",
            "correct": "confirmed",
        }.get(action, "pending")


async def test_every_match_is_exactly_what_its_audit_log_says_it_became(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB, CID)
    one = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win")).match
    await store.matches.confirm(one.id, actor=BOB)
    await store.matches.correct(one.id, actor=ORGANISER, result="draw", score="2-2", reason="miscounted")
    two = (await store.matches.report(league.id, actor=CID, opponent="ann", result="loss")).match
    await store.matches.dispute(two.id, actor=ANN)
    await store.matches.resolve(two.id, "void", actor=MANAGER, reason="never played")
    three = (await store.matches.report(league.id, actor=BOB, opponent="cid", result="win")).match
    await store.matches.report(league.id, actor=CID, opponent="bob", result="loss")  # merged
    for match in (one, two, three):
        current = await store.matches.get(match.id, actor=OPERATOR)
        history = list(reversed(await store.leagues.audit(league.id, actor=OPERATOR, match_id=match.id)))
        assert history[-1].after == current.state()
        for earlier, later in itertools.pairwise(history):
            assert later.before == earlier.after  # each change starts from where the last one left the match


async def test_a_reminder_is_claimed_once_a_day_before_even_by_two_sweeps_at_once(store: Store) -> None:
    """Two bot processes sweeping at the same moment: one of them reminds. Never for a window of a day or less
    (the report itself pinged the opponent), nor for a match answered since."""
    league = await league_with_players(store, ANN, BOB, CID, DEE)
    await store.leagues.update_settings(league.id, actor=ORGANISER, confirm_hours=48)
    waiting = (await store.matches.report(league.id, actor=ANN, opponent="bob", result="win", at=T0)).match
    answered = (await store.matches.report(league.id, actor=CID, opponent="dee", result="win", at=T0)).match
    await store.matches.attach_post(waiting.id, channel_id="c1", message_id="m1")
    await store.matches.attach_post(waiting.id, channel_id="c2", message_id="m2")  # its first message only
    await store.matches.confirm(answered.id, actor=DEE, at=T0 + timedelta(hours=1))
    assert await store.matches.claim_reminders(at=T0 + timedelta(hours=23, minutes=59)) == []
    claims = await asyncio.gather(*(store.matches.claim_reminders(at=T0 + timedelta(hours=24)) for _ in range(3)))
    [[reminder]] = [claim for claim in claims if claim]
    assert reminder.match.id == waiting.id and (reminder.post.channel_id, reminder.post.message_id) == ("c1", "m1")
    assert reminder.post.guild_id == GUILD
    assert await store.matches.claim_reminders(at=T0 + timedelta(hours=30)) == []
    await store.leagues.update_settings(league.id, actor=ORGANISER, confirm_hours=24)
    short = (await store.matches.report(league.id, actor=CID, opponent="ann", result="draw", at=T0)).match
    assert await store.matches.claim_reminders(at=T0 + timedelta(hours=1)) == []
    assert (await store.matches.get(short.id, actor=OPERATOR)).status == "pending"


async def test_names_seen_in_commands_are_kept_only_for_league_players(store: Store) -> None:
    league = await league_with_players(store, ANN, BOB)
    await store.leagues.leave(league.id, actor=BOB)  # a former player's games still need a name
    kept = await store.leagues.remember_names(GUILD, {"ann": "Ann", "bob": "Bob", "zed": "Zed"}, players_only=True)
    assert kept == {"ann", "bob"}
    assert {user: known.name for user, known in (await store.leagues.names(GUILD, ["ann", "bob", "zed"])).items()} == {
        "ann": "Ann", "bob": "Bob",
    }  # fmt: skip
    assert await store.leagues.names("g2", ["ann"]) == {}  # per server
