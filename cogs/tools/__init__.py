"""/help, /chart and /roll: the spec syntax, quick rulings from the charts, and generic dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.tools._cog import ToolsCog
from cogs.tools._help import HelpSection

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(ToolsCog(bot))
    bot.add_dynamic_items(HelpSection)  # a game's help menu answers after a restart too
