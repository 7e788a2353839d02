"""/roster save|show|list|delete|import|export: saved units, used as @name in any spec."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.rosters._cog import RostersCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(RostersCog(bot))
