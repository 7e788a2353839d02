"""The pictures of what players see: the real bot driven through the fake Discord with the main commands, each
answer drawn in Discord's dark theme and photographed in headless Chromium at desktop (820 px) and phone (390 px)
widths, full height, into this folder. One command regenerates them all (from the repository's top):

    PYTHONPATH=. .venv/bin/python docs/screenshots/make.py

It needs the test extras (selenium) and Debian's chromium and chromium-driver. The seeds are fixed, so the same
code draws the same pictures (but the league's, whose matches are dated when they are played); the sides are the
README's own commands, so the pictures follow the README. It prints each message's height at the phone's width
(the target for a combat result is one phone screen: 800 px).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord

from tests.e2e.conftest import running_bot
from tests.e2e.discord_view import (
    DESKTOP,
    PHONE,
    Shown,
    browser,
    chromium_missing,
    fixed_seeds,
    quick_start,
    readme_command,
    shown,
    slash,
)
from tests.e2e.fake_discord import OPPONENT_ID, PLAYER_ID, FakeDiscord, command_interaction, component_interaction

HERE = Path(__file__).resolve().parent
ORGANISER, BO, CID = 900000000000000100, OPPONENT_ID, 900000000000000103
NAMES = {str(PLAYER_ID): "Ann", str(BO): "Bo", str(CID): "Cid", str(ORGANISER): "Org"}
SEED = 2026
Scene = Callable[[FakeDiscord], Awaitable[Shown]]


async def readme(fake: FakeDiscord, starts: str, calls: int = 2) -> Shown:
    words, values = readme_command(starts)
    return await slash(fake, words, values, calls=calls, names=NAMES)


async def assault_40k(fake: FakeDiscord) -> Shown:
    return await quick_start(fake, names=NAMES)


async def duel(fake: FakeDiscord) -> Shown:
    return await readme(fake, "referee duel")


async def closequarters(fake: FakeDiscord) -> Shown:
    return await readme(fake, "referee closequarters")


async def assault_epic(fake: FakeDiscord) -> Shown:
    return await readme(fake, "referee assault epic")


async def odds_40k(fake: FakeDiscord) -> Shown:
    _, values = readme_command("referee assault 40k")
    return await slash(fake, ["odds", "40k"], values, calls=2, names=NAMES)


async def replay(fake: FakeDiscord) -> Shown:
    return await slash(fake, ["replay"], {"record": 1}, names=NAMES)


async def error(fake: FakeDiscord) -> Shown:
    _, values = readme_command("referee assault 40k")
    values = {**values, "attacker": values["attacker"].replace("frag-grenades", "frag-grenade", 1)}  # a typo
    return await slash(fake, ["assault", "40k"], values, names=NAMES)


async def help_40k(fake: FakeDiscord) -> Shown:
    return await slash(fake, ["help"], {"game": "40k"}, names=NAMES)


async def league_standings(fake: FakeDiscord) -> Shown:
    """A league of three after one evening: two matches reported and confirmed, then /league standings."""

    def league(name: str, options: list[dict[str, Any]], by: int, group: str = "league") -> dict[str, Any]:
        resolved = {"users": {key: {"id": key, "username": value, "discriminator": "0", "global_name": value,
                                    "avatar": None, "bot": False, "public_flags": 0}
                              for key, value in NAMES.items()}}  # fmt: skip
        payload = command_interaction(group, [{"type": 1, "name": name, "options": options}], user_id=by,
                                      permissions="2147483647" if group != "league" else "1024",
                                      resolved=resolved)  # fmt: skip
        payload["member"]["user"] = resolved["users"][str(by)]  # the player as named in the pictures' mentions
        return payload

    named = [{"type": 3, "name": "name", "value": "Autumn Crusade"}, {"type": 3, "name": "game", "value": "40k"}]
    await fake.ask(league("create", named, ORGANISER, "league-admin"))
    for player in (PLAYER_ID, BO, CID):
        await fake.ask(league("join", [], player))
    for number, (winner, loser) in enumerate([(PLAYER_ID, BO), (CID, PLAYER_ID), (PLAYER_ID, CID)], start=1):
        options = [{"type": 6, "name": "opponent", "value": str(loser)}, {"type": 3, "name": "result", "value": "win"}]
        [reported] = await fake.ask(league("report", options, winner))
        components = reported.payload["data"].get("components", [])
        await fake.ask(component_interaction(f"referee:league:confirm:{number}", components, user_id=loser))
    payload = league("standings", [], BO)
    return await shown(fake, payload, 2, "/league standings", asked_by="Bo", names=NAMES)


SCENES: dict[str, Scene] = {
    "assault-40k": assault_40k,
    "duel": duel,
    "closequarters": closequarters,
    "assault-epic": assault_epic,
    "odds-40k": odds_40k,
    "replay": replay,
    "error": error,
    "league-standings": league_standings,
    "help-40k": help_40k,
}


def small(picture: Path) -> None:
    """The picture in 256 colours (a third of the bytes; the theme has few colours and text stays sharp)."""
    from PIL import Image  # noqa: PLC0415  (matplotlib's own dependency)

    with Image.open(picture) as image:
        image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(picture, optimize=True)


async def answers(folder: Path) -> dict[str, Shown]:
    """Every scene's message, from the real bot on a fresh SQLite database behind the fake Discord."""
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base  # type: ignore[misc]  # as the tests' `fake` fixture does
    try:
        async with running_bot(fake, f"sqlite+aiosqlite:///{folder / 'screenshots.db'}"):
            return {name: await scene(fake) for name, scene in SCENES.items()}
    finally:
        await fake.stop()


def main() -> int:
    if reason := chromium_missing():
        print(reason, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as temporary, fixed_seeds(SEED):
        folder = Path(temporary)
        shots = asyncio.run(answers(folder))
        with browser(folder) as chromium:
            for name, message in shots.items():
                for width, kind in ((PHONE, "phone"), (DESKTOP, "desktop")):
                    picture = HERE / f"{name}-{kind}.png"
                    chromium.photograph([message], width, picture)
                    small(picture)
                print(f"{name:18} {chromium.measure(message, PHONE):5d} px tall at {PHONE} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
