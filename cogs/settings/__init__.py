"""/settings (a server's house rules, visibility, threads, channels and challenges, for members with Manage Server) and
/preferences (each player's own), docs/settings.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.settings._cog import SettingsCog

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(SettingsCog(bot))
