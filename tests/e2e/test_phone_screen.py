"""The README's quick-start 40K fight fits one phone screen (issue 20): its result, drawn in Discord's dark theme at
a 390 px viewport (embed body 14 px on 18 px lines, title 16 px, 16 px padding, fields stacked) in headless
Chromium, is at most 800 px tall, from the line naming the command to the last button. Three seeds, three fights."""

from __future__ import annotations

from bot.discord.app import RefereeBot
from tests.e2e.discord_view import PHONE, Browser, fixed_seeds, quick_start
from tests.e2e.fake_discord import FakeDiscord

ONE_SCREEN = 800  # px at a 390 px viewport


async def test_the_quick_start_result_fits_one_phone_screen(
    bot: RefereeBot, fake: FakeDiscord, chromium: Browser
) -> None:
    heights = []
    with fixed_seeds(2026):  # seeds 2026, 2027, 2028
        for _ in range(3):
            heights.append(chromium.measure(await quick_start(fake), PHONE))
    assert max(heights) <= ONE_SCREEN, f"px tall at {PHONE} px, seeds 2026 to 2028: {heights}"
