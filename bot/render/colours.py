"""Every colour the bot shows, named once: the embeds' colours (Discord takes them as 0xRRGGBB integers) and the
charts' (matplotlib takes them as '#rrggbb' text, from :func:`chart`).

The renderers, ``bot/discord/`` and the cogs all take their colours from here; a test keeps any other colour
literal out of bot/ and cogs/.
"""

from __future__ import annotations

GREEN = 0x2ECC71
RED = 0xE74C3C
YELLOW = 0xF1C40F
BLUE = 0x3498DB
PURPLE = 0x8E44AD
ORANGE = 0xE67E22
GREY = 0x95A5A6
DARK_RED = 0xC0392B
DARK_BLUE = 0x2980B9

INFO_COLOUR = BLUE  # the bot's own embeds: help, listings, rosters
ERROR_COLOUR = RED  # a command that could not do what was asked
ODDS_COLOUR = PURPLE
WINNER_COLOURS = {"attacker": GREEN, "defender": RED, "draw": YELLOW, "none": BLUE}  # a result: who won
VOID_COLOUR = YELLOW  # a record made void
MATCH_STATUS_COLOURS = {"pending": YELLOW, "confirmed": GREEN, "disputed": ORANGE, "void": GREY}  # league matches
AUDIT_COLOUR = GREY  # a league's audit log
ATTACKER_CHART = DARK_RED  # the attacker's bars in the odds chart
DEFENDER_CHART = DARK_BLUE
DRAW_CHART = GREY


def chart(colour: int) -> str:
    """A colour as matplotlib takes it: ``'#rrggbb'``."""
    return f"#{colour:06x}"


__all__ = [
    "ATTACKER_CHART",
    "AUDIT_COLOUR",
    "BLUE",
    "DARK_BLUE",
    "DARK_RED",
    "DEFENDER_CHART",
    "DRAW_CHART",
    "ERROR_COLOUR",
    "GREEN",
    "GREY",
    "INFO_COLOUR",
    "MATCH_STATUS_COLOURS",
    "ODDS_COLOUR",
    "ORANGE",
    "PURPLE",
    "RED",
    "VOID_COLOUR",
    "WINNER_COLOURS",
    "YELLOW",
    "chart",
]
