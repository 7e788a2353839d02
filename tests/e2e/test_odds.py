"""/odds through the fake Discord: input checked at once, then a deferred answer with the numbers and a chart."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import FakeDiscord, command_interaction

EPHEMERAL = 64


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def ask(game: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    return command_interaction("odds", options, subcommand=game)


async def test_exact_odds_with_a_chart(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = ask("boltaction", [option("attacker", "8x Grenadiers: veteran smg=2 nco"),
                                 option("defender", "10x Rifles: regular nco"), option("reaction_shots", 10, 4),
                                 option("distance", 9.0, 10)])  # fmt: skip
    deferred, edit = await fake.ask(payload, 2)
    assert deferred.payload["type"] == 5 and not (deferred.payload.get("data") or {}).get("flags", 0) & EPHEMERAL
    assert edit.method == "PATCH" and edit.files == ["odds.png"]
    embed = edit.payload["embeds"][0]
    assert embed["title"] == "Bolt Action close quarters: odds (exact)"
    assert "Attacker wins 69.4% · defender wins 30.6%" in embed["description"]
    assert 10_000 < edit.sizes[0] < 100 * 1024  # a real chart, under 100 KiB


async def test_monte_carlo_where_the_exact_solver_cannot_go(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = ask("40k", [
        option("attacker", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ | 1x Captain: WS5 S4 T4 W2 I5 A3 Ld10 Sv3+"),
        option("defender", "6x Ork: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"),
        option("private", True, 5),
    ])  # fmt: skip
    deferred, edit = await fake.ask(payload, 2)
    assert deferred.payload["data"]["flags"] & EPHEMERAL  # private: deferred privately, so the answer is private
    embed = edit.payload["embeds"][0]
    assert re.search(r"Monte Carlo, [1-9][0-9]* trials, 95% intervals", embed["title"])
    assert "[" in embed["description"]  # every probability with its interval
    assert "As many trials as fitted in the time limit of 4 s." in embed["description"]


async def test_bad_input_is_answered_privately_at_once(bot: RefereeBot, fake: FakeDiscord) -> None:
    bad = ask("boltaction", [option("attacker", "8x Grenadiers: elite"), option("defender", "10x Rifles: regular")])
    [answer] = await fake.ask(bad, 1)
    assert answer.payload["type"] == 4 and answer.payload["data"]["flags"] & EPHEMERAL
    assert "elite" in answer.payload["data"]["embeds"][0]["description"]
    exact = ask("40k", [
        option("attacker", "1x Librarian: WS5 S4 T4 W2 I4 A2 Ld10 Sv3+ force-weapon"),
        option("defender", "8x Boyz: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"), option("method", "exact"),
    ])  # fmt: skip
    [answer] = await fake.ask(exact, 1)
    assert answer.payload["data"]["flags"] & EPHEMERAL
    assert "force weapons" in answer.payload["data"]["embeds"][0]["description"]


async def test_the_sides_offer_the_players_rosters_as_in_the_games_command(bot: RefereeBot, fake: FakeDiscord) -> None:
    from bot.storage.rosters import RosterInput
    from tests.e2e.fake_discord import PLAYER_ID, base_interaction

    await bot.store.rosters.save(str(PLAYER_ID), RosterInput("boltaction", "grens", "8x Grenadiers: veteran smg=2"))
    data = {"id": "1", "name": "odds", "type": 1, "options": [{"type": 1, "name": "boltaction", "options": [
        {"type": 3, "name": "defender", "value": "gr", "focused": True}]}]}  # fmt: skip
    payload = base_interaction(4, data, user_id=PLAYER_ID)
    [answer] = await fake.ask(payload, 1)
    assert answer.payload["type"] == 8
    assert [choice["value"] for choice in answer.payload["data"]["choices"]] == ["@grens", "@grens/1"]
    shown = ask("boltaction", [option("attacker", "@grens"), option("defender", "10x Rifles: regular")])
    _, edit = await fake.ask(shown, 2)
    assert "odds (exact)" in edit.payload["embeds"][0]["title"]


async def test_the_largest_models_at_the_limits_are_answered_within_the_time_limit(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 200 models of 10 attacks a side once crashed the sampled model (a float overflow): no answer at all.
    from cogs.odds import _cog

    monkeypatch.setattr(_cog, "BOT_TIME_LIMIT", 0.5)  # any budget answers: a short one keeps the suite quick
    payload = ask("40k", [
        option("attacker", "200x Big: WS10 S10 T10 W10 I10 A10 Ld10 Sv2+ rending lightning-claws"),
        option("defender", "200x Big: WS10 S10 T10 W10 I10 A10 Ld10 Sv2+ Inv3+"), option("round", 2, 4),
    ])  # fmt: skip
    deferred, edit = await fake.ask(payload, 2)
    assert deferred.payload["type"] == 5 and edit.files == ["odds.png"]
    embed = edit.payload["embeds"][0]
    assert re.search(r"Monte Carlo, [1-9][0-9]* trials", embed["title"])
    assert "time limit of 0.5 s" in embed["description"] and "pairs of unit states" in embed["description"]
