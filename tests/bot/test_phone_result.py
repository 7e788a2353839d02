"""The README's quick-start 40K fight fits one phone screen, for every seed tried, by the rough rule the issue sets
until the Chromium measure (about 45 characters a line at 390 px, 18 px a line, a 16 px title line, 16 px
padding, fields stacked), leaving room for an eight-line summary and a row of buttons."""

from __future__ import annotations

import math

from bot.data import catalogue
from bot.render.embeds import render_pages
from rules_core import resolve
from tests.rules_core.helpers40k import QUICK_START_ATTACKER, QUICK_START_DEFENDER

ATTACKER, DEFENDER = QUICK_START_ATTACKER, QUICK_START_DEFENDER  # the README's quick-start fight
SCREEN = 800
SUMMARY = 8 * 18


def phone_lines(text: str, width: int = 45) -> int:
    return sum(max(1, math.ceil(len(line) / width)) for line in text.split("\n"))


def test_the_quick_start_result_fits_a_phone_screen_for_every_seed() -> None:
    game = catalogue().game("40k")
    worst = 0
    for seed in range(400):
        report = resolve(game, ATTACKER, DEFENDER, seed=seed, charge_distance=4, defender_in_cover=True)
        (page,) = render_pages(report, record_id=12)  # one page: paging is for long fights only
        embed = page.to_dict()
        steps = sum(8 + 18 * (phone_lines(f["name"]) + phone_lines(f["value"])) for f in embed.get("fields", []))
        frame = 2 * 16 + 22 * phone_lines(embed.get("title", ""), 37) + 24 + 48  # padding, title, footer, buttons
        worst = max(worst, frame + steps + SUMMARY)
        assert phone_lines(embed.get("title", ""), 37) == 1, embed.get("title")
    assert worst <= SCREEN, worst
