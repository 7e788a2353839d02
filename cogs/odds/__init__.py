"""/odds <game>: the odds of a procedure before you fight it, with a chart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.odds._cog import OddsCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(OddsCog(bot))
