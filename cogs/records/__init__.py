"""/replay, /verify, /history, /void and /note: the stored combats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.records._cog import RecordsCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(RecordsCog(bot))
