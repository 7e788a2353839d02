"""/league and /league-admin: leagues, seasons, match reports with Confirm / Dispute buttons, standings, history,
audit, export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.leagues._cog import LeagueCog
from cogs.leagues._ui import MatchButton

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(MatchButton)  # the Confirm / Dispute buttons answer after a restart too
    await bot.add_cog(LeagueCog(bot))


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(MatchButton)
