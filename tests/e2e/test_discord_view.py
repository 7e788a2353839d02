"""The Discord-like drawing that docs/screenshots/ and the phone-screen test share (tests/e2e/discord_view.py): its
Markdown, how an edit changes a message, the README's commands as slash options, and in Chromium the theme's sizes
and colours, a chart shown wide enough for its text, and a phone's layout taller than a desktop's."""

from __future__ import annotations

from bot.discord.app import RefereeBot
from bot.render.chart_style import PHONE_IMAGE_WIDTH
from bot.render.colours import ATTACKER_COLOUR, ERROR_COLOUR, chart
from bot.render.odds import odds_chart
from rules_core.odds import odds
from tests.e2e.discord_view import (
    DESKTOP,
    PHONE,
    Browser,
    Shown,
    markdown,
    merged,
    page,
    quick_start,
    readme_command,
)
from tests.e2e.fake_discord import FakeDiscord


def test_markdown_as_discord_draws_it() -> None:
    drawn = markdown("**12 hits** on `4+` for <@5>\n- *first* \\*not italic\\*\n```\nA < B\n```", {"5": "Ann"})
    assert "<b>12 hits</b>" in drawn and "<code>4+</code>" in drawn and '<span class="mention">@Ann</span>' in drawn
    assert '<div class="md-li"><i>first</i> &#42;not italic&#42;</div>' in drawn
    assert "<pre>A &lt; B</pre>" in drawn


def test_an_edit_replaces_what_it_sends() -> None:
    first = {"embeds": [{"title": "held"}], "components": []}
    edit = {"components": [{"type": 1, "components": []}], "embeds": None}
    assert merged(first, edit) == {"embeds": [{"title": "held"}], "components": [{"type": 1, "components": []}]}


def test_the_readme_quick_start_as_slash_options() -> None:
    words, values = readme_command("referee assault 40k")
    assert words == ["assault", "40k"]
    assert {"attacker", "defender", "charge_distance"} <= set(values)
    assert "Sergeant" in values["attacker"] and "Nob" in values["defender"]


def css(chromium: Browser, selector: str, prop: str) -> str:
    script = "return getComputedStyle(document.querySelector(arguments[0])).getPropertyValue(arguments[1])"
    return str(chromium.driver.execute_script(script, selector, prop))


def rgb(colour: int) -> str:
    return f"rgb({colour >> 16}, {(colour >> 8) & 0xFF}, {colour & 0xFF})"


def test_the_theme_measures_as_the_issue_says(chromium: Browser) -> None:
    shown = Shown({"embeds": [{"title": "That did not work", "description": "Unknown keyword", "color": ERROR_COLOUR,
                               "fields": [{"name": "A", "value": "1", "inline": True}]}]})  # fmt: skip
    chromium.load(page([shown]), PHONE)
    assert css(chromium, ".embed", "border-left-width") == "4px"
    assert css(chromium, ".embed", "border-left-color") == rgb(ERROR_COLOUR)
    assert css(chromium, ".embed", "padding-top") == css(chromium, ".embed", "padding-left") == "16px"
    assert (css(chromium, ".description", "font-size"), css(chromium, ".description", "line-height")) == (
        "14px",
        "18px",
    )
    assert css(chromium, ".title", "font-size") == "16px"
    assert css(chromium, "body", "background-color") == "rgb(49, 51, 56)"  # #313338


def test_a_chart_is_shown_at_least_as_wide_as_its_text_was_sized_for(chromium: Browser) -> None:
    result = odds("boltaction", "8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco", reaction_shots=10,
                  distance=9.0)  # fmt: skip
    shown = Shown({"embeds": [{"title": "odds", "color": ATTACKER_COLOUR}]}, [("odds.png", odds_chart(result, "x"))])
    chromium.load(page([shown]), PHONE)
    width = int(chromium.driver.execute_script("return document.querySelector('.attachment').width"))
    assert PHONE_IMAGE_WIDTH <= width < PHONE  # the chart's text is >= 14 px at PHONE_IMAGE_WIDTH, so here too
    assert chart(ATTACKER_COLOUR) == "#3c8dd6"


async def test_a_phone_stacks_and_wraps_what_a_desktop_lays_out(
    bot: RefereeBot, fake: FakeDiscord, chromium: Browser
) -> None:
    shown = await quick_start(fake)
    assert shown.payload["embeds"] and shown.command == "/assault 40k"
    assert chromium.measure(shown, PHONE) > chromium.measure(shown, DESKTOP) > 200
