"""/assault <game>, /assault continue, /duel and /closequarters: generated from the games' declared options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.combat._cog import CombatCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(CombatCog(bot))
