"""The summary at table level through the real bot and the fake Discord, for each of the five games: who won by unit
name and player, the models or units to remove, every move with its distance, what comes next; the opponent named on
a combat is shown and pinged once (allowed_mentions limited to that user), and nobody else is."""

from __future__ import annotations

from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.render.markdown import escape
from bot.render.summary import headline, table_lines
from rules_core.report import Report
from tests.e2e.fake_discord import (
    GUILD_ID,
    OPPONENT_ID,
    PLAYER_ID,
    Answer,
    FakeDiscord,
    command_interaction,
    final_answer,
    user,
)

PLAYERS = (f"<@{PLAYER_ID}>", f"<@{OPPONENT_ID}>")


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def against(name: str, options: list[dict[str, Any]], subcommand: str | None = None) -> dict[str, Any]:
    """The command with the ``opponent`` option naming OPPONENT_ID."""
    return command_interaction(
        name,
        [*options, option("opponent", str(OPPONENT_ID), 6)],
        subcommand=subcommand,
        resolved={"users": {str(OPPONENT_ID): user(OPPONENT_ID, "opponent")}},
    )


async def fight(bot: RefereeBot, fake: FakeDiscord, payload: dict[str, Any]) -> tuple[Answer, Report, str]:
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    record = int(answer.data["embeds"][0]["footer"]["text"].split("record #")[1].split()[0])
    stored = await bot.store.records.get(record, actor=OPERATOR)
    return answer, stored.report, answer.data["embeds"][0]["description"]


def assert_summary(answer: Answer, report: Report, description: str) -> None:
    """The result names both players and pings only the opponent, once; its summary is the report's, line for line,
    and every move the report holds is there with its distance."""
    assert answer.first["content"] == f"<@{OPPONENT_ID}>"
    assert [str(u) for u in answer.first["allowed_mentions"]["users"]] == [str(OPPONENT_ID)]
    assert answer.first["allowed_mentions"]["parse"] == []
    assert "content" not in answer.data or answer.data["content"] == answer.first["content"]  # the edit pings nobody
    top = f"**{headline(report, PLAYERS, escape)}**"
    assert top in description and PLAYERS[0] in top and PLAYERS[1] in top
    lines = table_lines(report, escape)
    assert "\n".join([top, *lines]) in description
    assert any(line.startswith("Next: ") for line in lines)
    for step in report.steps:
        for ev in step.events:
            distance = ev.get("distance", ev.get("inches"))
            if ev.kind in ("fall_back", "consolidate", "pile_in", "regroup", "broke_off") and distance is not None:
                assert f'{distance:g}"' in description, (ev, description)


async def test_40k_names_the_players_removes_by_model_and_gives_the_moves(bot: RefereeBot, fake: FakeDiscord) -> None:
    squad = "9x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ dies-last"
    orks = "14x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ dies-last"
    answer, report, description = await fight(bot, fake, against("assault", [
        option("attacker", squad), option("defender", orks), option("charge_distance", 4.0, 10)], "40k"))  # fmt: skip
    assert_summary(answer, report, description)
    for side, name in (("attacker", "Tactical Marine"), ("defender", "Ork Boy")):
        lost = report.result.side(side).lost  # type: ignore[arg-type]
        line = next(line for line in table_lines(report) if line.startswith(f"{name}: "))
        assert ("nothing to remove" not in line) == (lost > 0), line


async def test_40k_a_charge_that_falls_short_says_so_with_both_players(bot: RefereeBot, fake: FakeDiscord) -> None:
    answer, report, description = await fight(bot, fake, against("assault", [
        option("attacker", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"),
        option("defender", "5x Ork: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"),
        option("charge_distance", 9.0, 10)], "40k"))  # fmt: skip
    assert_summary(answer, report, description)
    assert f"**No combat between Marine (<@{PLAYER_ID}>) and Ork (<@{OPPONENT_ID}>): no charge**" in description
    assert "Marine: nothing to remove; 5 models left" in description
    assert "Next: No combat this turn." in description


async def test_epic_and_reikhammer_count_units_and_move_in_their_own_measures(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    for game, attacker, defender, measure in (
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF", "8x Boyz: CC4+ FF6+ Sv6+ INF", "5cm"),
        ("reikhammer", "6x Line: CC4 FF3 Sv5+ INF", "6x Spearmen: CC4 FF1 Sv6+ INF", "1 tile"),
    ):
        answer, report, description = await fight(
            bot, fake, against("assault", [option("attacker", attacker), option("defender", defender)], game)
        )
        assert_summary(answer, report, description)
        assert " units left" in description or "wiped out" in description
        if report.result.winner in ("attacker", "defender") and any(
            ev.kind == "consolidate" for step in report.steps for ev in step.events
        ):
            assert measure in description


async def test_the_duel_names_both_players(bot: RefereeBot, fake: FakeDiscord) -> None:
    answer, report, description = await fight(bot, fake, against("duel", [
        option("attacker", "Captain: WS6 S4 T4 W3 I6 A3 Sv2+"),
        option("defender", "4x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+")]))  # fmt: skip
    assert_summary(answer, report, description)
    slain = sum(1 for model in report.result.defender.extra["models"] if model["status"] == "slain")
    if slain:
        assert f"Ork Boy: remove {slain} Ork Boy" in description
    # /replay shows the same players (the stored requester and opponent), and pings nobody.
    record = int(answer.data["embeds"][0]["footer"]["text"].split("record #")[1].split()[0])
    (replayed,) = await fake.ask(command_interaction("replay", [option("record", record, 4)]), 1)
    shown = replayed.payload["data"]
    assert f"**{headline(report, PLAYERS, escape)}**" in shown["embeds"][0]["description"]
    assert not shown.get("content") and not shown.get("allowed_mentions", {}).get("users")


async def test_bolt_action_moves_the_assaulters_that_fall_short(bot: RefereeBot, fake: FakeDiscord) -> None:
    answer, report, description = await fight(bot, fake, against("closequarters", [
        option("attacker", "8x Grenadiers: veteran smg=2 nco"), option("defender", "10x Rifles: regular nco"),
        option("distance", 13.0, 10)]))  # fmt: skip
    assert_summary(answer, report, description)
    assert 'Move: Grenadiers move 12" towards Rifles and stop more than 1" away from them.' in description
    assert "Grenadiers: nothing to remove; 8 men left" in description


async def test_without_an_opponent_nobody_is_pinged(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction("duel", [option("attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+"),
                                           option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")])  # fmt: skip
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    assert not answer.first.get("content")
    assert answer.first["allowed_mentions"] == {"parse": []} or not answer.first["allowed_mentions"].get("users")
    description = answer.data["embeds"][0]["description"]
    assert f"(<@{PLAYER_ID}>)" in description and "(<@" not in description.replace(f"(<@{PLAYER_ID}>)", "")


async def test_a_continued_combat_keeps_each_side_s_player_and_pings_the_other(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    from rules_core import resolve

    marines = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
    orks = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"
    first = resolve("40k", marines, orks, seed=0, charge_distance=3)
    record = await bot.store.records.add(first, requested_by=str(PLAYER_ID), opponent=str(OPPONENT_ID),
                                         guild_id=str(GUILD_ID))  # fmt: skip
    # The defender's player fights the next round: the Marines are still the requester's, the Orks still theirs.
    payload = command_interaction("assault", [option("record", record, 4)], subcommand="continue", user_id=OPPONENT_ID)
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    description = answer.data["embeds"][0]["description"]
    assert f"Marine (<@{PLAYER_ID}>)" in description and f"Ork Boy (<@{OPPONENT_ID}>)" in description
    assert answer.first["content"].startswith(f"<@{PLAYER_ID}>")
    assert [str(u) for u in answer.first["allowed_mentions"]["users"]] == [str(PLAYER_ID)]
