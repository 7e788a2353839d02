"""/help for one game, in Discord itself: its overview (what it resolves, the spec shape, a command to copy), its
tokens and its options, one section at a time (each about a phone screen), picked from a menu that keeps working
after a restart. A rules page is linked only when DOCS_URL says where docs/ is published: a player is never shown
a path inside the repository."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.data import catalogue
from bot.discord.settings import Settings
from bot.render.colours import INFO_COLOUR
from bot.render.markdown import cut
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import Game, command_path

EMBED_TOTAL = 6000  # Discord's limit for everything in one embed
FIELD_VALUE = 1024
SECTIONS = {
    "overview": ("Overview", "What it resolves, how to write a side, a command to copy"),
    "tokens": ("Tokens", "What you can write in a unit: stats, settings, keywords"),
    "options": ("Options", "The command's options, and what each changes"),
    "choices": ("How the referee chooses for you", "Its choices where the rules let a player choose"),
}


def option_line(option: OptionSpec) -> str:
    """One option as a Discord user sets it: its range, its default in words (none said when it has none: what
    leaving it out means is in its help), and its help."""
    shown = option.describe_range()
    if option.type is OptionType.BOOL:
        shown += ", default on" if option.default else ", default off"
    elif option.default is not None:
        shown += f", default {option.default}"
    return f"`{option.name}` ({shown}): {option.help}"


def token_line(game: Game, index: int) -> str:
    token = game.tokens[index]
    example = f" e.g. `{token.example}`" if token.example else ""
    return f"`{token.token}` ({token.kind}): {token.help}{example}"


def chunks(lines: list[str], size: int = FIELD_VALUE) -> list[str]:
    """Lines packed into field values of at most ``size`` characters, a line never split between two."""
    packed: list[str] = []
    current = ""
    for line in (cut(line, size) for line in lines):
        if current and len(current) + 1 + len(line) > size:
            packed.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*packed, current] if current else packed


def help_embed(game: Game, section: str, docs_link: str | None) -> discord.Embed:
    """One section of a game's help, within Discord's limits."""
    label = SECTIONS[section][0]
    embed = discord.Embed(title=cut(f"{game.title}: {label.lower()}", 256), colour=INFO_COLOUR)
    if section == "overview":
        example = f"/{command_path(game)} attacker:{game.example_attacker} defender:{game.example_defender}"
        text = (
            f"{game.summary}\n\n**A side**: {game.spec_shape}\n\n**Try it** (copy, then change the units):\n"
            f"```\n{example}\n```\nNo units at hand? `/roster samples game:{game.id}` saves the shipped samples "
            "to your rosters, to use as `@name`.\n\nPlaying someone remotely? Add `opponent:@them agree:True`: "
            "they see both sides and accept them before a die is rolled.\n\nThe menu below shows the **tokens** a "
            "unit takes and the command's **options**, and **how the referee chooses for you** where the rules let a "
            "player choose."
        )
        embed.description = cut(text, 4096)
    else:
        if section == "tokens":
            lines = [token_line(game, n) for n in range(len(game.tokens))]
        elif section == "options":
            lines = [option_line(option) for option in game.options]
        else:  # what a result's "Why?" button says, here once for good
            lines = list(game.standing_choices) or ["The rules leave no choice to the players that it makes."]
        values = chunks(lines) or ["This game has none."]
        used = len(embed.title or "")
        for number, value in enumerate(values):
            name = label if number == 0 else f"{label} (cont.)"
            if used + len(name) + len(value) > EMBED_TOTAL - 200 or number == 25:
                break  # kept whole and within Discord's limits; no game comes near (tests/e2e walks them)
            embed.add_field(name=name, value=value, inline=False)
            used += len(name) + len(value)
    if docs_link is not None:
        embed.add_field(name="Every rule decision, written down", value=docs_link, inline=False)
    embed.set_footer(text=f"/help game:{game.id} · {label} · pick another section below")
    return embed


class HelpSection(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"referee:help:(?P<game>[^:]+)"):
    """The menu of a game's help sections; its custom id carries the game, so it answers after a restart."""

    def __init__(self, game_id: str, chosen: str = "overview") -> None:
        options = [
            discord.SelectOption(label=label, value=key, description=about, default=key == chosen)
            for key, (label, about) in SECTIONS.items()
        ]
        super().__init__(discord.ui.Select(custom_id=f"referee:help:{game_id}", options=options))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpSection:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        section = next(iter(self.item.values), "overview")
        section = section if section in SECTIONS else "overview"
        await interaction.response.edit_message(**help_message(interaction.client.settings, self.game_id, section))


def help_message(settings: Settings, game_name: str, section: str = "overview") -> dict[str, Any]:
    """The embed and menu of one section of a game's help (the game named by any of its names)."""
    game = catalogue().game(game_name)
    link = settings.docs_link(game.docs_page)
    view = discord.ui.View(timeout=None)
    view.add_item(HelpSection(game.id, section))
    return {"embed": help_embed(game, section, link), "view": view}


__all__ = ["HelpSection", "help_embed", "help_message", "option_line"]
