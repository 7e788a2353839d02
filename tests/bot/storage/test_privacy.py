"""Exporting and deleting one user's or one guild's data, on both backends."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from bot.access import OPERATOR, Actor
from bot.leagues.errors import LeagueNotFound
from bot.storage import Store
from bot.storage.models import LeagueEvent, LeagueMatch
from bot.storage.rosters import RosterInput
from tests.bot.storage.test_records import a_report

GUILD = "g1"

ROSTER = RosterInput("40k", "marines", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+")


async def fill(store: Store) -> dict[str, int]:
    ids = {
        "u1_in_g1": await store.records.add(a_report(1), requested_by="u1", opponent="u2", guild_id="g1"),
        "u2_in_g1": await store.records.add(a_report(2), requested_by="u2", opponent="u1", guild_id="g1"),
        "u2_in_g2": await store.records.add(a_report(3), requested_by="u2", guild_id="g2"),
    }
    await store.records.add_note(ids["u2_in_g1"], "note", actor=Actor("u1", operator=True), reason="agreed")
    await store.records.add_note(ids["u1_in_g1"], "void", actor=Actor("u2", operator=True), reason="mistake")
    await store.rosters.save("u1", ROSTER, guild_id="g1")
    await store.rosters.save("u2", RosterInput("duel", "captain", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+"))
    await store.records.add_roll("2d6", "2d6 (3, 4) = `7`", 7, requested_by="u1", guild_id="g1")
    return ids


async def test_a_users_export_holds_everything_about_them(store: Store) -> None:
    ids = await fill(store)
    exported = await store.privacy.export(user="u1")
    assert exported["schema"] == "referee-data-export/1"
    assert [r["id"] for r in exported["combat_records"]] == [ids["u1_in_g1"], ids["u2_in_g1"]]  # asked for, or named
    assert exported["combat_records"][0]["history"][0]["kind"] == "void"
    assert exported["combat_records"][0]["report"]["seed"] == 1
    assert [r["name"] for r in exported["rosters"]] == ["marines"]
    assert [r["total"] for r in exported["dice_rolls"]] == [7]
    json.dumps(exported)  # plain JSON all through


async def test_deleting_a_user_removes_their_records_and_rosters_and_anonymises_the_rest(store: Store) -> None:
    ids = await fill(store)
    counts = await store.privacy.delete(user="u1")
    assert counts == {"record_notes": 1, "combat_records": 1, "rosters": 1, "dice_rolls": 1, "challenges": 0,
                      "organiser_roles": 0,
                      "display_names": 0, "preferences": 0, "preference_changes": 0,
                      "records_anonymised": 1, "notes_anonymised": 1, "league_matches_anonymised": 0,
                      "league_events_anonymised": 0, "league_memberships": 0, "other_rows_anonymised": 0,
                      "standings_caches": 0}  # fmt: skip
    remaining = await store.records.history(actor=OPERATOR)
    assert [row.id for row in remaining] == [ids["u2_in_g2"], ids["u2_in_g1"]]
    kept = await store.records.get(ids["u2_in_g1"], actor=OPERATOR)
    assert kept.opponent.startswith("deleted-") and len(kept.opponent) == len("deleted-") + 8
    assert kept.history[0].actor == kept.opponent  # one pseudonym for every trace of them
    after = await store.privacy.export(user="u1")
    assert after["combat_records"] == [] and after["rosters"] == []


async def test_deleting_a_guild_removes_its_records_and_unshares_its_rosters(store: Store) -> None:
    ids = await fill(store)
    secret = await store.records.add(a_report(4), requested_by="u3", opponent="u4", guild_id="g1", private=True)
    exported = await store.privacy.export(guild="g1")  # what a manager downloads: the server's, not its players'
    assert sorted(r["id"] for r in exported["combat_records"]) == [ids["u1_in_g1"], ids["u2_in_g1"]]
    counts = await store.privacy.delete(guild="g1")
    assert counts == {"combat_records": 2, "record_notes": 2, "private_combats_detached": 1, "rosters_unshared": 1,
                      "dice_rolls": 1, "challenges": 0, "leagues": 0, "display_names": 0, "settings": 0,
                      "settings_changes": 0}  # fmt: skip
    assert [row.id for row in await store.records.history(actor=OPERATOR)] == [secret, ids["u2_in_g2"]]
    kept = await store.records.get(secret, actor=Actor("u4", guild="g9"))  # still its two players'
    assert (kept.guild_id, kept.channel_id, kept.private) == (None, None, True)
    roster = await store.rosters.get("u1", "40k", "marines")
    assert roster.guild_id is None  # still the owner's, no longer shared


async def test_the_subject_must_be_one_user_or_one_guild(store: Store) -> None:
    with pytest.raises(ValueError, match="exactly one"):
        await store.privacy.export()
    with pytest.raises(ValueError, match="exactly one"):
        await store.privacy.delete(user="u1", guild="g1")


async def league_of_three(store: Store) -> int:
    league = await store.leagues.create("g1", "Crusade", "40k", actor=Actor("org", guild=GUILD))
    for user in ("u1", "u2", "u3"):
        await store.leagues.join(league.id, actor=Actor(user, guild=GUILD))
    await store.matches.enter(league.id, actor=Actor("org", guild=GUILD), player="u1", opponent="u2", result="win")
    await store.matches.report(league.id, actor=Actor("u3", guild=GUILD), opponent="u1", result="draw")
    pending = (await store.matches.in_league(league.id, actor=OPERATOR, statuses=["pending"]))[0]
    await store.matches.dispute(pending.id, actor=Actor("u1", guild=GUILD), reason="<@u1> says it was a loss for <@u3>")
    return league.id


async def test_a_users_league_games_stay_in_the_table_under_a_pseudonym_of_their_own(store: Store) -> None:
    league_id = await league_of_three(store)
    exported = await store.privacy.export(user="u1")
    assert [m["result"] for m in exported["league_matches"]] == ["win", "draw"]
    assert [e["kind"] for e in exported["league_events"]] == ["joined", "disputed"]
    json.dumps(exported)
    before = {row.player: row.points for row in (await store.leagues.standings(league_id, actor=OPERATOR)).rows}
    counts = await store.privacy.delete(user="u1")
    assert (counts["league_matches_anonymised"], counts["league_events_anonymised"], counts["league_memberships"]) == (
        2, 4, 1,
    )  # fmt: skip  # events: their join and dispute, and the two whose before/after states name them
    rows = (await store.leagues.standings(league_id, actor=OPERATOR)).rows
    alias = next(row.player for row in rows if row.player.startswith("deleted-"))
    assert {row.player: row.points for row in rows} == {**{k: v for k, v in before.items() if k != "u1"}, alias: 3}
    text = json.dumps(await store.privacy.export(guild="g1"))
    assert '"u1"' not in text and "<@u1>" not in text  # not in matches, events, before/after states or reasons
    await store.privacy.delete(user="u2")
    players = {row.player for row in (await store.leagues.standings(league_id, actor=OPERATOR)).rows}
    assert len([p for p in players if p.startswith("deleted-")]) == 2  # two deleted players stay two rows


async def test_deleting_a_guild_deletes_its_leagues(store: Store) -> None:
    league_id = await league_of_three(store)
    assert (await store.privacy.delete(guild="g1"))["leagues"] == 1
    assert await store.leagues.all(actor=OPERATOR, guild_id="g1") == []
    with pytest.raises(LeagueNotFound):
        await store.leagues.audit(league_id, actor=OPERATOR)
    with pytest.raises(LeagueNotFound):
        await store.matches.in_league(league_id, actor=OPERATOR)
    async with store.sessions() as session:  # nothing of it is left behind the league's own row
        for table in (LeagueEvent, LeagueMatch):
            assert (await session.scalar(select(func.count()).select_from(table))) == 0


async def test_a_users_export_holds_what_they_wrote_and_organise(store: Store) -> None:
    """Their voids and notes on other people's combats, and the leagues they created or organise without playing."""
    ids = await fill(store)
    await store.records.add_note(ids["u2_in_g2"], "note", actor=Actor("u1", operator=True), reason="I watched")
    league = await store.leagues.create("g1", "Ladder", "40k", actor=Actor("u9", guild=GUILD))
    await store.leagues.add_organiser(league.id, "u1", actor=Actor("u9", guild=GUILD))
    mine = await store.privacy.export(user="u1")
    assert [(n["record_id"], n["kind"]) for n in mine["notes_written"]] == [(ids["u2_in_g2"], "note")]
    assert [row["name"] for row in mine["leagues"]] == ["Ladder"]
    assert [row["name"] for row in (await store.privacy.export(user="u9"))["leagues"]] == ["Ladder"]


async def test_cached_display_names_are_in_the_users_export_and_go_with_them(store: Store) -> None:
    """The league chart's and CSV's names are personal data: a user's export holds theirs (in every server, and
    nobody else's); deleting the user deletes them; deleting a server deletes the names cached for it."""
    await store.leagues.remember_names("g1", {"u1": "Ann the Bold", "u2": "Bob"})
    await store.leagues.remember_names("g2", {"u1": "Ann"})
    exported = await store.privacy.export(user="u1")
    assert [(n["guild_id"], n["name"]) for n in exported["display_names"]] == [("g1", "Ann the Bold"), ("g2", "Ann")]
    assert (await store.privacy.export(user="u3"))["display_names"] == []
    counts = await store.privacy.delete(user="u1")
    assert counts["display_names"] == 2
    assert {user: known.name for user, known in (await store.leagues.names("g1", ["u1", "u2"])).items()} == {
        "u2": "Bob"
    }
    assert await store.leagues.names("g2", ["u1"]) == {}
    assert (await store.privacy.delete(guild="g1"))["display_names"] == 1
    assert await store.leagues.names("g1", ["u2"]) == {}


async def test_challenges_are_in_their_players_and_servers_exports_without_an_open_ones_seed(store: Store) -> None:
    """A player's export holds the challenges they made and were made, a server's those made there; an open
    challenge's seed and salt stay out (the opponent could otherwise read the dice before agreeing), a resolved
    one's are shown, as its record shows them. Deleting the server deletes its challenges."""
    from datetime import UTC, datetime, timedelta

    from bot.challenges.commitment import commitment, draw_salt

    later = datetime.now(UTC) + timedelta(hours=1)
    made = {}
    for seed, (challenger, opponent) in enumerate((("u1", "u2"), ("u2", "u1")), start=41):
        salt = draw_salt()
        made[challenger] = await store.challenges.create(
            game="duel", kind="duel", inputs={"attacker": "A: WS4 S4 T4 W1 I4 A1 Sv3+", "defender": "B: WS3 S3 T3 W1 "
            "I3 A1 Sv-", "options": {}}, seed=seed, salt=salt, commitment=commitment(seed, salt),
            challenger_id=challenger, opponent_id=opponent, guild_id=GUILD, channel_id="c", expires_at=later,
        )  # fmt: skip
    resolved = made["u2"]
    from rules_core import resolve

    report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=resolved.seed)
    record = await store.challenges.resolve(resolved, report, agreed={"challenger": "u2", "opponent": "u1"},
                                            requested_by="u2", opponent="u1")  # fmt: skip
    exported = await store.privacy.export(user="u1")
    by_challenger = {c["challenger_id"]: c for c in exported["challenges"]}
    assert set(by_challenger) == {"u1", "u2"}
    assert by_challenger["u1"]["status"] == "open" and by_challenger["u1"]["seed"] is None
    assert by_challenger["u1"]["salt"] is None and by_challenger["u1"]["commitment"] == made["u1"].commitment
    assert by_challenger["u2"]["seed"] == resolved.seed and by_challenger["u2"]["record_id"] == record
    (agreed,) = [r for r in exported["combat_records"] if r["id"] == record]
    assert agreed["commitment"] == resolved.commitment and agreed["agreed"] == {"challenger": "u2", "opponent": "u1"}
    assert len((await store.privacy.export(guild=GUILD))["challenges"]) == 2
    json.dumps(exported)
    assert (await store.privacy.delete(guild=GUILD))["challenges"] == 2
    assert (await store.privacy.export(user="u1"))["challenges"] == []
