"""Every colour the bot shows, named once: the embeds' colours (Discord takes them as 0xRRGGBB integers) and the
charts' (matplotlib takes them as '#rrggbb' text, from :func:`chart`).

The renderers, ``bot/discord/`` and the cogs all take their colours from here; a test keeps any other colour
literal out of bot/ and cogs/.

One palette says who is who everywhere (result embeds, the odds chart, the screenshots in docs/): the attacker is
blue, the defender orange, a draw grey, and an error a dark red that neither side uses. Blue against orange stays
apart for colour-blind players (protanopia, deuteranopia and tritanopia alike: tests/bot/test_palette_and_charts.py
simulates them); red against green, the old attacker and defender, did not, and a defender's win was shown in the
error colour. The hues are Okabe and Ito's colour-blind-safe set, lightened where they must stand out on Discord's
dark theme.
"""

from __future__ import annotations

# The roles: who a colour stands for.
ATTACKER_COLOUR = 0x3C8DD6  # blue
DEFENDER_COLOUR = 0xE69F00  # orange
DRAW_COLOUR = 0x949BA4  # grey: nobody won (a draw, or no combat at all)
ERROR_COLOUR = 0xA8321C  # dark red: a command that could not do what was asked; never a side's colour

# Named hues for everything that is not a side (help, records, league matches).
GREEN = 0x009E73  # Okabe-Ito bluish green: confirmed, identical
RED = ERROR_COLOUR
YELLOW = 0xF0E442
BLUE = 0x5865F2  # Discord's blurple: the bot's own informative embeds, apart from the attacker's blue
PURPLE = 0xCC79A7
ORANGE = 0xD55E00  # vermillion: disputed
GREY = DRAW_COLOUR
DARK_RED = 0xC0392B
DARK_BLUE = 0x2980B9

INFO_COLOUR = BLUE  # the bot's own embeds: help, listings, rosters
ODDS_COLOUR = PURPLE
WINNER_COLOURS = {"attacker": ATTACKER_COLOUR, "defender": DEFENDER_COLOUR, "draw": DRAW_COLOUR,
                  "none": DRAW_COLOUR}  # a result: who won  # fmt: skip
VOID_COLOUR = YELLOW  # a record made void
MATCH_STATUS_COLOURS = {"pending": YELLOW, "confirmed": GREEN, "disputed": ORANGE, "void": GREY}  # league matches
AUDIT_COLOUR = GREY  # a league's audit log
# A challenge (issue 24): open in blurple, changed (the challenger's turn) yellow, accepted green, closed grey.
CHALLENGE_COLOURS = {"open": BLUE, "changed": YELLOW, "resolved": GREEN, "declined": GREY, "cancelled": GREY,
                     "expired": GREY, "replaced": GREY}  # fmt: skip
ATTACKER_CHART = ATTACKER_COLOUR  # the attacker's bars in the odds chart: the same blue as the result embeds
DEFENDER_CHART = DEFENDER_COLOUR
DRAW_CHART = DRAW_COLOUR

# Discord's dark theme, which the charts are drawn for (and tests/e2e/discord_view.py imitates for docs/screenshots/).
DISCORD_BACKGROUND = 0x313338  # a channel
DISCORD_EMBED = 0x2B2D31  # an embed's body: the charts' background, so a chart sits in the theme like an embed
DISCORD_TEXT = 0xDBDEE1  # body text: the charts' text and axes
DISCORD_MUTED = 0x949BA4  # secondary text: grid lines, the starting rating
DISCORD_HEADER = 0xF2F3F5  # names and titles
DISCORD_LINK = 0x00A8FC
DISCORD_BUTTONS = {1: 0x5865F2, 2: 0x4E5058, 3: 0x248046, 4: 0xDA373C, 5: 0x4E5058}  # by button style
DISCORD_CODE = 0x1E1F22  # code spans and blocks
CHART_BACKGROUND = DISCORD_EMBED
CHART_TEXT = DISCORD_TEXT
CHART_GRID = DISCORD_MUTED
# The players' lines on the rating chart: Okabe and Ito's set, all legible on the dark background; the attacker's
# blue and the defender's orange come last, so that a league's first players are not drawn in colours that mean a
# side everywhere else.
RATING_LINES = (0x009E73, 0xCC79A7, 0xF0E442, 0xDBDEE1, 0xD55E00, 0x56B4E9, 0xE69F00, 0x3C8DD6)


def chart(colour: int) -> str:
    """A colour as matplotlib (and CSS) takes it: ``'#rrggbb'``."""
    return f"#{colour:06x}"


__all__ = [
    "ATTACKER_CHART",
    "ATTACKER_COLOUR",
    "AUDIT_COLOUR",
    "BLUE",
    "CHART_BACKGROUND",
    "CHART_GRID",
    "CHART_TEXT",
    "DARK_BLUE",
    "DARK_RED",
    "DEFENDER_CHART",
    "DEFENDER_COLOUR",
    "DISCORD_BACKGROUND",
    "DISCORD_BUTTONS",
    "DISCORD_CODE",
    "DISCORD_EMBED",
    "DISCORD_HEADER",
    "DISCORD_LINK",
    "DISCORD_MUTED",
    "DISCORD_TEXT",
    "DRAW_CHART",
    "DRAW_COLOUR",
    "ERROR_COLOUR",
    "GREEN",
    "GREY",
    "INFO_COLOUR",
    "MATCH_STATUS_COLOURS",
    "ODDS_COLOUR",
    "ORANGE",
    "PURPLE",
    "RATING_LINES",
    "RED",
    "VOID_COLOUR",
    "WINNER_COLOURS",
    "YELLOW",
    "chart",
]
