"""The challenges' expiry sweep (docs/challenges.md, "Expiry"): the commands and buttons of challenges are the
combat commands' (cogs/combat) and bot/discord/challenges.py's; this package runs what happens with nobody pressing
anything."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.challenges._cog import ChallengeSweepCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(ChallengeSweepCog(bot))
