"""The colours of the bot's own embeds: information, and errors (a result's colour says who won: bot.render)."""

from __future__ import annotations

INFO_COLOUR = 0x3498DB
ERROR_COLOUR = 0xE74C3C

__all__ = ["ERROR_COLOUR", "INFO_COLOUR"]
