"""/privacy (what the bot stores, your data as a file, deleting your data) and /server-data (a manager deletes the
server's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.privacy._cog import PrivacyCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(PrivacyCog(bot))
