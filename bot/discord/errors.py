"""What a user sees when a command cannot do what was asked: a short error embed (with a correct example where
there is one), or, for a bug, an apology with an id to find it in the log.

``DISCORD`` writes a :class:`rules_core.errors.RefereeError`'s structured parts the Discord way: options as
``name:value``, what to do next as a slash command (``/roster list``), users as mentions.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord

from bot.render.colours import ERROR_COLOUR
from bot.render.markdown import cut, escape
from rules_core import RefereeError, get_game
from rules_core.errors import Commands, Do, Example, Hint, Setting

log = logging.getLogger("referee.bot")

# The slash command for each thing a user can do next, and the sentence that names it. What only organisers do is
# under /league-admin, which Discord shows only to those allowed it: the sentence says who does it.
_COMMANDS = {
    Do.GAME_HELP: "/help game:{subject}",
    Do.LIST_RECORDS: "/history",
    Do.LIST_ROSTERS: "/roster list game:{subject}",
    Do.LIST_LEAGUES: "/league list",
    Do.CREATE_LEAGUE: "/league-admin create",
    Do.JOIN_LEAGUE: "/league join",
    Do.START_SEASON: "/league-admin season start",
    Do.LEAGUE_HISTORY: "/league history",
    Do.REPORT_MATCH: "/league report",
    Do.VOID_MATCH: "/league-admin void",
    Do.FIGHT_AGREED: "{command} attacker:... defender:... opponent:@Bob agree:true",
    Do.RESOLVE: "{command}",  # the game's own combat command: /assault 40k, /duel
    Do.ODDS: "/odds {subject}",
}
_HINTS = {
    Do.GAME_HELP: "See '{command}'.",
    Do.LIST_RECORDS: "'{command}' lists the recent ones.",
    Do.LIST_ROSTERS: "'{command}' shows yours.",
    Do.LIST_LEAGUES: "'{command}' shows this server's leagues; an organiser starts one with '/league-admin create'.",
    Do.CREATE_LEAGUE: "An organiser starts one with '{command}'.",
    Do.JOIN_LEAGUE: "Players join with '{command}'.",
    Do.START_SEASON: "An organiser starts the next with '{command}'.",
    Do.LEAGUE_HISTORY: "'{command}' lists the league's matches.",
    Do.REPORT_MATCH: "Players report their games with '{command}'.",
    Do.VOID_MATCH: "Organisers void a match with '{command}'.",
    Do.FIGHT_AGREED: "Fight one agreed, your opponent accepting it: '{command}'.",
    Do.RESOLVE: "'{command}' resolves one combat.",
    Do.ODDS: "'{command}' gives the odds of one combat.",
}


def game_command(game_id: str) -> str:
    """A game's slash command as the combat cog registers it: ``/assault 40k`` under /assault, else ``/duel``."""
    game = get_game(game_id)
    return f"/assault {game.id}" if game.command == "assault" else f"/{game.command}"


def option_text(setting: Setting) -> str:
    """One slash-command option set to a value: ``charge_distance:4.5``, ``shot_this_turn:True``."""
    return f"{setting.name}:{setting.value}"


class DiscordWords:
    """How Discord writes an error's structured parts (rules_core.errors.Words)."""

    def literal(self, text: str) -> str:
        return escape(text)

    def mention(self, user: str) -> str:
        # A Discord id shows as the member's name; a pseudonym left by a deletion is shown as the plain word.
        return f"<@{user}>" if user.isdigit() else escape(user)

    def option(self, name: str) -> str:
        return f"`{name}`"

    def command(self, path: str) -> str:
        return f"/{path}"

    def example(self, example: Example) -> str:
        options = " ".join(option_text(setting) for setting in example.settings)
        if example.do in (Do.RESOLVE, Do.ODDS):  # a whole command of the game
            return f"{_command(example.do, example.subject)} {options}"
        return options if example.do is None else f"{_COMMANDS[example.do]} {options}"

    def hint(self, hint: Hint) -> str:
        return _HINTS[hint.do].format(command=_command(hint.do, hint.subject))


def _command(do: Do, subject: str) -> str:
    """The slash command that does ``do`` about ``subject`` (the game's own combat command where it names one)."""
    if do in (Do.FIGHT_AGREED, Do.RESOLVE):  # the game's own combat command, not one of the referee's
        return _COMMANDS[do].format(command=game_command(subject))
    return _COMMANDS[do].format(subject=subject)


DISCORD = DiscordWords()


def error_embed(message: str, example: str | None = None, *, escaped: bool = False) -> discord.Embed:
    description = cut(message if escaped else escape(message), 3000)
    embed = discord.Embed(title="That did not work", description=description, colour=ERROR_COLOUR)
    if example:
        embed.add_field(name="A correct example", value=cut(f"```\n{example}\n```", 1024), inline=False)
    return embed


def code_block(text: str) -> str:
    """``text`` in a code block that nothing in it can close (a player's text may hold backticks)."""
    return "```\n" + text.replace("```", "`\u200b`\u200b`") + "\n```"


SPEC_SHOWN = 900  # characters of a player's spec shown around its faulty token (a field holds 1,024)


def referee_error_embed(error: RefereeError) -> discord.Embed:
    """The one answer to every error a user can fix: its message, what to do next and an example, Discord's way.

    An error in a spec the player gave shows that spec back with the faulty token between ⟦ ⟧ (marks that read on
    a phone, in plain text and without colour), and the spec corrected, to copy, where the fix is certain."""
    given = error.given
    if isinstance(error.example, Commands) and (given is None or not given.text):
        return _commands_embed(error, error.example)
    if given is None or not given.text:
        return error_embed(error.text_of(DISCORD), error.example_of(DISCORD), escaped=True)
    embed = error_embed(error.text_of(DISCORD), escaped=True)
    marked = given.span is not None
    embed.add_field(
        name=f"Your {given.option}" + (", the faulty part in ⟦ ⟧" if marked else ""),
        value=code_block(given.marked(limit=SPEC_SHOWN)),
        inline=False,
    )
    if given.corrected is not None and len(given.corrected) <= SPEC_SHOWN:
        embed.add_field(name=f"Corrected {given.option}, to copy", value=code_block(given.corrected), inline=False)
    elif example := error.example_of(DISCORD):
        embed.add_field(name="A correct example", value=cut(code_block(example), 1024), inline=False)
    return embed


FIELD_VALUE, EMBED_TOTAL, FIELDS = 1024, 6000, 25  # Discord's limits: a field's value, a whole embed, its fields


def _commands_embed(error: RefereeError, commands: Commands) -> discord.Embed:
    """Several commands to copy (one per combat), each whole in a field of its own ("(2 of 4)"), within Discord's
    embed limits; those that do not fit are counted in a last field that says how to get them (room for it is
    kept while more commands follow)."""
    embed = error_embed(error.text_of(DISCORD), escaped=True)
    used = len(embed.title or "") + len(embed.description or "")
    count = len(commands.examples)
    for number, each in enumerate(commands.examples, start=1):
        name, value = f"{commands.heading} ({number} of {count})", code_block(DISCORD.example(each))
        rest = count - number
        kept = sum(map(len, _more(rest))) if rest else 0  # room for the last field while more commands follow
        if (
            len(value) > FIELD_VALUE
            or used + len(name) + len(value) + kept > EMBED_TOTAL
            or len(embed.fields) + 1 + (1 if rest else 0) > FIELDS
        ):
            more, how = _more(rest + 1)
            embed.add_field(name=more, value=how, inline=False)
            return embed
        embed.add_field(name=name, value=value, inline=False)
        used += len(name) + len(value)
    return embed


def _more(count: int) -> tuple[str, str]:
    """The last field's name and value when ``count`` commands do not fit: how many, and how to get them."""
    return (
        f"And {count} more combat{'s' if count != 1 else ''}",
        "Too many to show whole here. Fight the combats above first, then leave out their units and send the "
        "command again: the answer gives the commands for the rest.",
    )


# Commands that moved to a top-level command of their own (issue 18), for a client still showing the old ones.
_MOVED = {
    **{f"league {name}": f"league-admin {name}"
       for name in ("create", "settings", "organiser", "resolve", "void", "correct", "enter")},
    "league season start": "league-admin season start",
    "league season end": "league-admin season end",
    "privacy delete-server-data": "server-data delete",
}  # fmt: skip


def gone_embed(parents: list[str], name: str) -> discord.Embed:
    """For a command the bot no longer has: Discord can show a stale list for a while after the bot changes it."""
    old = " ".join([*parents, name])
    if old in _MOVED:
        return error_embed(f"'/{old}' is no longer a command: it is '/{_MOVED[old]}' now, which Discord shows to "
                           "server managers and the roles they allow it, once it refreshes its list.")  # fmt: skip
    return error_embed(f"'/{old}' is no longer a command of the referee (Discord can show an old list for a "
                       "while): type / to see the current ones.")  # fmt: skip


def apology(error_id: str) -> discord.Embed:
    return discord.Embed(
        title="Sorry: something went wrong on our side",
        description=f"The referee hit an unexpected error. Nothing you typed was lost. Error id: `{error_id}` "
        "(give it to the bot's operator).",
        colour=ERROR_COLOUR,
    )


def new_error_id() -> str:
    return secrets.token_hex(4)


ALREADY_ACKNOWLEDGED = 40060  # Discord's code for a second answer to one interaction


def answered_elsewhere(error: BaseException) -> bool:
    """Discord refused an answer because the interaction already has one: another session (another process running
    the same shard) answered it first. There is nothing to tell the player: they already have that answer."""
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


def warn_answered_elsewhere(interaction: discord.Interaction[Any], command: str) -> None:
    """One warning line for an interaction another process answered first, naming the likely cause."""
    shard = interaction.guild.shard_id if interaction.guild is not None else 0
    log.warning("interaction %s in /%s was already answered by another process: shard %s runs in two processes "
                "(overlapping SHARD_IDS, or a replacement started before the old one stopped); run each shard in "
                "exactly one", interaction.id, command, shard)  # fmt: skip


__all__ = [
    "DISCORD",
    "answered_elsewhere",
    "apology",
    "error_embed",
    "gone_embed",
    "new_error_id",
    "referee_error_embed",
    "warn_answered_elsewhere",
]
