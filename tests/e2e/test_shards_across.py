"""What crosses processes: two ``referee bot`` processes (disjoint shards) on one PostgreSQL, through the fake Discord.

The league sweep, which every process runs at start and every minute, confirms each of 120 overdue matches once,
edits its report once and announces it once, with both processes claiming at the same moment and each confirming
its share. A server is only ever served by the process that owns its shard, so what one process recorded is used
from the other after a reshard (the shard ids swapped): a combat continued, replayed, verified with its button and
voided, a league report's Confirm button pressed. A roster saved through one process is used through the other, and
a player's /preferences set through one are obeyed by the other within the settings cache's poll; a server's
setting (``/settings web``) set through one opens and closes its combat page on the other's web pages.
"""

from __future__ import annotations

import asyncio
import socket
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp

from bot.access import OPERATOR, Actor
from bot.storage import Store
from bot.storage.matches import SWEEP_BATCH
from tests.bot.storage.conftest import migrated_postgresql
from tests.e2e.fake_discord import (
    OPPONENT_ID,
    PLAYER_ID,
    FakeDiscord,
    channel_of,
    command_interaction,
    component_interaction,
    final_answer,
    guild_on,
    snowflake,
    user,
)
from tests.e2e.processes import BotProcess, bot_processes
from tests.e2e.test_shards import DUEL, fake_discord, holding, option, query, record_id
from tests.waits import scaled

EPHEMERAL = 64
MANAGER = "2147483647"
ORGANISER, ANN, BOB = (900000000000000100 + n for n in range(3))
PLAYERS = [900000000000000200 + n for n in range(12)]
PAIRS = [(one, other) for i, one in enumerate(PLAYERS) for other in PLAYERS[i + 1 :]][:60]  # 60 pairs
# Nobody can wound anybody (S3 against T10): the round is a draw and the combat always goes on.
STUBBORN = ("5x Marine: WS4 S3 T10 W1 I4 A1 Ld10 Sv2+", "5x Ork Boy: WS4 S3 T10 W1 I2 A2 Ld10 Sv2+")


# The sweeps' claims (SELECT ... FOR UPDATE takes ROW SHARE on the table) waiting for the test's table lock.
CLAIMS_WAITING = ("SELECT count(*) FROM pg_locks WHERE relation = 'league_matches'::regclass AND NOT granted "
                  "AND mode = 'RowShareLock'")  # fmt: skip


def custom_ids(data: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in data.get("components", []) for c in row["components"]]


def edits_of(fake: FakeDiscord, channel: int, message: str) -> list[Any]:
    return [c for c in fake.calls if c.method == "PATCH" and c.path == f"/channels/{channel}/messages/{message}"]


def posts_to(fake: FakeDiscord, channel: int) -> list[Any]:
    return [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{channel}/messages"]


async def test_both_processes_sweeping_confirm_each_overdue_match_once(tmp_path: Path) -> None:
    url = await migrated_postgresql()
    guilds = (guild_on(0, 2), guild_on(1, 2))
    news = {guild: guild + 2 for guild in guilds}  # each server's league channel
    reports: dict[int, tuple[int, str]] = {}  # match id -> (its channel, its report message's id)
    store = await Store.open(url)
    try:  # 60 overdue reports in a league of each server, seeded straight into the shared database: 120, more than
        # two of the sweep's batches (SWEEP_BATCH, 50), so that neither process can claim them all in its first one
        for guild in guilds:
            where = str(guild)
            organiser = Actor(str(ORGANISER), where, manager=True)
            created = await store.leagues.create(where, "Weekly", "40k", actor=organiser, confirm_hours=1)
            for player in PLAYERS:
                await store.leagues.join(created.id, actor=Actor(str(player), where))
            for reporter, opponent in PAIRS:
                outcome = await store.matches.report(
                    created.id, actor=Actor(str(reporter), where), opponent=str(opponent), result="win",
                    at=datetime.now(UTC) - timedelta(hours=2),
                )  # fmt: skip
                message = snowflake()
                await store.matches.attach_post(outcome.match.id, channel_id=str(channel_of(guild)), message_id=message)
                reports[outcome.match.id] = (channel_of(guild), message)
            await store.settings.set("server", where, where, "league_channel", str(news[guild]), str(ORGANISER))
    finally:
        await store.close()
    assert len(reports) == 120 > 2 * SWEEP_BATCH

    async with fake_discord(guilds) as fake, holding(url, "league_matches", "EXCLUSIVE") as held:
        processes = [BotProcess(fake, url, [shard], 2, tmp_path / f"shard{shard}.log") for shard in (0, 1)]
        async with bot_processes(processes):  # both start together, and each sweeps at start
            # Each sweep's first claim (SELECT ... FOR UPDATE) waits on the table lock held here: once both wait, the
            # lock goes, and both claim at the same moment. Without it, one process starting a second earlier could
            # sweep everything alone and the test would prove nothing about sharing.
            deadline = time.monotonic() + scaled(30)
            while await query(url, CLAIMS_WAITING) != [(2,)]:
                assert time.monotonic() < deadline, "the two sweeps never both waited for their first claim"
                await asyncio.sleep(0.05)
            await held.rollback()
            await fake.wait_calls(lambda c: c.method == "PATCH" and c.path.startswith("/channels/"), 120, 60)
            await fake.wait_calls(lambda c: c.method == "POST" and c.path.startswith("/channels/"), 120, 60)
            assert [await process.stop() for process in processes] == [0, 0]  # all either will ever send is sent

    for match, (channel, message) in reports.items():
        [edit] = edits_of(fake, channel, message)  # its report message edited once
        assert edit.payload["embeds"][0]["title"] == f"Match #{match}: confirmed" and edit.payload["components"] == []
    for guild in guilds:
        announced = [c.payload["embeds"][0] for c in posts_to(fake, news[guild])]
        assert len(announced) == 60, announced  # one announcement per match, in its own server's league channel
    assert len([c for c in fake.calls if c.method == "POST" and c.path.startswith("/channels/")]) == 120
    assert len([c for c in fake.calls if c.method == "PATCH" and c.path.startswith("/channels/")]) == 120
    events = await query(url, "SELECT match_id, count(*) FROM league_events WHERE kind = 'auto-confirmed' "
                              "GROUP BY match_id")  # fmt: skip
    assert dict(events) == dict.fromkeys(reports, 1)  # each match confirmed once, whichever process did it
    assert await query(url, "SELECT DISTINCT status FROM league_matches") == [("confirmed",)]
    logged = [[line for line in p.log().splitlines() if "confirmed automatically" in line] for p in processes]
    assert sorted(int(line.split("#")[1].split()[0]) for lines in logged for line in lines) == sorted(reports)
    # Both really swept: claiming together, each took a whole batch the other had skipped (SKIP LOCKED), and the
    # last 20 went to whichever finished first.
    assert all(len(lines) >= SWEEP_BATCH for lines in logged), [len(lines) for lines in logged]


def command(name: str, options: list[dict[str, Any]], guild: int, *, by: int = PLAYER_ID, **more: Any) -> Any:
    return command_interaction(name, options, guild_id=guild, user_id=by, **more)


async def ask(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    """The one callback that answers ``payload`` (its data)."""
    (callback,) = await fake.ask(payload)
    data: dict[str, Any] = callback.payload.get("data") or {}
    return data


async def fought(fake: FakeDiscord, payload: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A combat's result (its first answer) and the record id its edit shows."""
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    return answer.first, record_id(answer.data)


async def test_what_one_process_recorded_is_used_from_the_other_after_a_reshard(tmp_path: Path) -> None:
    url = await migrated_postgresql()
    here, there = guild_on(0, 2), guild_on(1, 2)  # shard 0 of 2, then shard 1 of 2
    league_opts = [{"type": 1, "name": "report", "options": [option("opponent", str(BOB), 6),
                                                            option("result", "win")]}]  # fmt: skip
    async with fake_discord([here, there]) as fake:
        first = BotProcess(fake, url, [0], 2, tmp_path / "a.log")
        second = BotProcess(fake, url, [1], 2, tmp_path / "b.log")
        async with bot_processes([first, second]):
            # Through the first process (shard 0): a combat that goes on, a duel, a league report with buttons.
            attacker, defender = STUBBORN
            _, going_on = await fought(fake, command("assault", [option("attacker", attacker),
                                                                 option("defender", defender),
                                                                 option("charge_distance", 3.0, 10)], here,
                                                     subcommand="40k"))  # fmt: skip
            await fake.interaction(duel := command("duel", DUEL, here))
            duel_answer = await final_answer(fake, duel["token"])
            duel_record = record_id(duel_answer.data)
            create = [{"type": 1, "name": "create", "options": [option("name", "Weekly"), option("game", "40k")]}]
            await ask(fake, command("league-admin", create, here, by=ORGANISER, permissions=MANAGER))
            for player in (ANN, BOB):
                await ask(fake, command("league", [{"type": 1, "name": "join", "options": []}], here, by=player))
            reported = await ask(fake, command("league", league_opts, here, by=ANN,
                                               resolved={"users": {str(BOB): user(BOB, "bob")}}))  # fmt: skip
            assert custom_ids(reported) == ["referee:league:confirm:1", "referee:league:dispute:1"]

            # A roster saved through the first process, used by its owner in a server of the second.
            saved = await ask(fake, command("roster", [option("name", "boss"), option("game", "duel"),
                                                       option("spec", "Warboss: WS5 S4 T5 W3 I4 A3 Sv4+ power-fist")],
                                            here, subcommand="save"))  # fmt: skip
            assert "boss" in str(saved)
            shown, _ = await fought(fake, command("duel", [option("attacker", "@boss"), DUEL[1]], there))
            assert "Warboss" in str(shown)

            # A preference set through the second process is obeyed by the first once its cache has polled.
            await ask(fake, command("preferences", [option("value", "on")], there, by=OPPONENT_ID,
                                    subcommand="private", permissions="0"))  # fmt: skip
            deadline = time.monotonic() + scaled(15)
            while True:  # /replay follows the player's preference and records nothing: ask until it is private
                replayed = await ask(fake, command("replay", [option("record", duel_record, 4)], here, by=OPPONENT_ID))
                if replayed.get("flags", 0) & EPHEMERAL or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
            assert replayed.get("flags", 0) & EPHEMERAL, "the first process never saw the preference"
            private, _ = await fought(fake, command("duel", DUEL, here, by=OPPONENT_ID))
            assert private["flags"] & EPHEMERAL  # a combat of theirs too, with no private: option
            assert [await first.stop(), await second.stop()] == [0, 0]

        # A reshard: the shard ids swapped, so the first server now belongs to the other process.
        third = BotProcess(fake, url, [1], 2, tmp_path / "a-resharded.log")
        fourth = BotProcess(fake, url, [0], 2, tmp_path / "b-resharded.log")
        async with bot_processes([third, fourth]):
            continued, record = await fought(fake, command("assault", [option("record", going_on, 4)], here,
                                                           subcommand="continue"))  # fmt: skip
            assert record != going_on and "last round's" in str(continued)  # the next round, from the record
            replayed = await ask(fake, command("replay", [option("record", duel_record, 4)], here))
            assert f"record #{duel_record}" in replayed["embeds"][0]["footer"]["text"]
            verify = f"referee:verify:{duel_record}"
            assert verify in custom_ids(duel_answer.data)
            verified = await ask(fake, component_interaction(verify, duel_answer.data["components"], guild_id=here,
                                                             asked_by=PLAYER_ID))  # fmt: skip
            assert verified["embeds"][0]["title"] == f"Record #{duel_record} verified"
            confirmed = await ask(fake, component_interaction("referee:league:confirm:1", reported["components"],
                                                              user_id=BOB, guild_id=here))  # fmt: skip
            assert confirmed["embeds"][0]["title"] == "Match #1: confirmed" and confirmed["components"] == []
            voided = await ask(fake, command("void", [option("record", duel_record, 4), option("reason", "typo")],
                                             here))  # fmt: skip
            assert voided["embeds"][0]["title"] == f"Record #{duel_record} is void"
            assert [await third.stop(), await fourth.stop()] == [0, 0]

    # Each server's commands went to the process owning its shard at the time, and to no other.
    assert {line["guild"] for line in first.commands()} == {here}
    assert {line["guild"] for line in second.commands()} == {there}
    assert third.commands() == []
    assert [line["command"] for line in fourth.commands()] == ["assault continue", "replay", "void"]
    assert {line["shard"] for line in fourth.commands()} == {0}
    store = await Store.open(url)
    try:  # read back by the operator, as `referee replay` would
        assert (await store.records.get(record, actor=OPERATOR)).continues_id == going_on
        assert (await store.records.get(duel_record, actor=OPERATOR)).voided
    finally:
        await store.close()
    matches = await query(url, "SELECT id, status, decided_by FROM league_matches")
    assert matches == [(1, "confirmed", str(BOB))]


def free_port() -> int:
    """A port nothing listens on now (the OS picks it), for a process's web pages."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def page_status(url: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status


async def test_a_server_setting_changed_through_one_process_is_obeyed_by_the_other(tmp_path: Path) -> None:
    """A server's commands reach only the process that owns its shard, so a server setting is used by another
    process only in what every process does for every server: after a reshard (the cache loads every setting at
    start), and meanwhile in the web pages a process serves (``referee bot --web``) for every server's combats and
    the league sweep's announcements. Here the web pages: ``/settings web`` set in a server of the first process
    opens and closes that server's combat page on the second within its settings cache's poll (every second)."""
    url = await migrated_postgresql()
    here, there = guild_on(0, 2), guild_on(1, 2)
    port = free_port()
    async with fake_discord([here, there]) as fake:
        first = BotProcess(fake, url, [0], 2, tmp_path / "a.log")
        second = BotProcess(fake, url, [1], 2, tmp_path / "b.log", SERVE_WEB="true", WEB_PORT=str(port))
        async with bot_processes([first, second]):
            _, record = await fought(fake, command("duel", DUEL, here))
            [(slug,)] = await query(url, "SELECT slug FROM combat_records WHERE id = :id", id=record)
            page = f"http://127.0.0.1:{port}/c/{slug}"
            assert await page_status(page) == 404  # the server has not opted in to the web pages

            for value, status in (("public", 200), ("off", 404)):
                changed = await ask(fake, command("settings", [option("value", value)], here, by=ORGANISER,
                                                  subcommand="web", permissions=MANAGER))  # fmt: skip
                assert "web" in str(changed).lower(), changed
                deadline = time.monotonic() + scaled(15)
                while (seen := await page_status(page)) != status and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                assert seen == status, f"the second process never saw web {value}"
            assert [await first.stop(), await second.stop()] == [0, 0]
    assert [line["command"] for line in first.commands()] == ["duel", "settings web", "settings web"]
    assert second.commands() == []  # the change reached the second process through the database alone
