"""/league: leagues, seasons, match reports with Confirm / Dispute buttons, standings, history, audit, export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.leagues._cog import LeagueCog

if TYPE_CHECKING:
    from bot.discord_app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(LeagueCog(bot))
