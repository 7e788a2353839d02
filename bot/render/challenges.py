"""A challenge as Discord shows it (issue 24), in every state: open, changed by the opponent, resolved, declined,
cancelled, expired.

An open challenge shows both sides exactly as the referee read them (the result's own "Read" line, then every unit's
profile as the engine wrote it), the options and which of them came from house rules, who plays which side, the
commitment in full, when it expires (Discord's relative timestamp) and what each player can do. A closed one says
what became of it. Every embed keeps Discord's limits: a side too long for its field, or a next round's positions
too long for the description, is cut with a note; the whole text is in the file attached to the message
(:func:`challenge_file`), one tap away, and the whole side is stored and resolved.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import discord

from bot.render.colours import CHALLENGE_COLOURS
from bot.render.embeds import EMBED_TOTAL, FIELD_VALUE
from bot.render.markdown import cut, escape
from bot.render.summary import cut_read
from bot.server_settings.model import house_rules_line
from rules_core.errors import RefereeError
from rules_core.registry import Game
from rules_core.spec import side_summary


class StoredChallenge(Protocol):
    """What the renderer reads of a stored challenge (bot/storage/challenges.py ``StoredChallenge``; a renderer
    imports no storage)."""

    @property
    def id(self) -> int: ...
    @property
    def inputs(self) -> dict[str, Any]: ...
    @property
    def inputs_version(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def salt(self) -> str: ...
    @property
    def commitment(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def challenger_id(self) -> str: ...
    @property
    def opponent_id(self) -> str | None: ...
    @property
    def expires_at(self) -> datetime: ...
    @property
    def record_id(self) -> int | None: ...

    def expired(self, at: datetime | None = None) -> bool: ...
    def accepted_by(self, side: str) -> bool: ...


READ = 300  # characters of a side's "Read" line in its field; its profile text takes the rest of the 1,024
POSITIONS = 800  # characters of a next round's positions in the description: 4 fields of 1,024 take the most room
ATTACHED = "the whole text is in the attached file"


def state_of(challenge: StoredChallenge) -> str:
    """What the message shows: the stored status, ``changed`` for an open challenge the opponent changed (the
    challenger's acceptance pending), ``expired`` for an open one past its time."""
    if challenge.status == "open" and challenge.expired():
        return "expired"
    if challenge.status == "open" and challenge.inputs_version > 1 and not challenge.accepted_by("challenger"):
        return "changed"
    return challenge.status


def mention(user: str | None) -> str:
    return f"<@{user}>" if user and user.isdigit() else escape(user or "anyone")


def unix(challenge: StoredChallenge) -> int:
    return int(challenge.expires_at.timestamp())


def players_of(challenge: StoredChallenge) -> tuple[str, str | None]:
    """Who plays the attacker and the defender: the challenger and the opponent, or for a next round the players
    of the record it continues as they were (either of them may ask)."""
    players = challenge.inputs.get("players")
    if isinstance(players, list) and len(players) == 2:
        return str(players[0]), None if players[1] is None else str(players[1])
    return challenge.challenger_id, challenge.opponent_id


def _kept_note(state: str) -> str:
    """What became of a cut side, by the challenge's state (a closed one rolled nothing)."""
    if state in ("open", "changed"):
        return f"the whole side is kept and resolved; {ATTACHED}"
    if state == "resolved":
        return f"the whole side was resolved; {ATTACHED}"
    return f"nothing was rolled; {ATTACHED}"


def _side_field(text: str, player: str | None = None, state: str = "open") -> str:
    """A side's field: who plays it, how it was read (counts and names, cut between units), then its profile text
    in a code block, cut between units with a note (how many are shown) when the field would pass Discord's 1,024
    characters."""
    try:
        read = cut_read(side_summary(text), READ)
    except RefereeError:
        read = "as given"
    played = f"Played by {mention(player)}.\n" if player else ""
    head = f"{played}Read: {escape(read)}\n```\n"
    profile = text.replace("```", "'''")
    room = FIELD_VALUE - len(head) - len("\n```")
    if len(profile) <= room:
        return f"{head}{profile}\n```"
    units = profile.split(" | ")
    note = f"\n… cut here: {len(units)} of {len(units)} units shown ({_kept_note(state)})"  # the longest it can be
    shown: list[str] = []
    for unit in units:
        if len(" | ".join([*shown, unit])) + len(" | …") + len(note) > room:
            break
        shown.append(unit)
    if shown:
        kept = " | ".join(shown) + " | …"
        note = f"\n… cut here: {len(shown)} of {len(units)} units shown ({_kept_note(state)})"
    else:  # one unit too long on its own: cut it between words
        note = f"\n… cut here: the first of {len(units)} units shown in part ({_kept_note(state)})"
        kept = profile[: room - len(note) - 2].rsplit(" ", 1)[0] + " …"
    return f"{head}{kept}\n```{note}"


def options_text(inputs: dict[str, Any], game: Game | None = None) -> str:
    """The options the players gave (``name:value``) and those the house rules set, in the summary's words. A next
    round's (``game`` given) carries every option of its record: those at the rules' defaults go unsaid."""
    options: dict[str, Any] = dict(inputs.get("options") or {})
    house = [name for name in inputs.get("house_rules") or [] if name in options]
    given = [f"`{name}:{value}`" for name, value in options.items() if name not in house]
    label = "Given"
    if game is not None and "continues" in inputs:
        defaults = {spec.name: spec.default for spec in game.options}
        given = [f"`{name}:{value}`" for name, value in options.items()
                 if name not in house and (name not in defaults or defaults[name] != value)]  # fmt: skip
        label = "Carried on (the rest at the rules' defaults)"
    lines = []
    if given:
        lines.append(f"{label}: " + " ".join(given))
    if house:
        line = escape(house_rules_line(options, house))
        lines.append(line[:1].upper() + line[1:])
    return cut("\n".join(lines), FIELD_VALUE) if lines else "None: the rules' defaults."


def challenge_embed(challenge: StoredChallenge, game: Game, *, replaced_by: int | None = None) -> discord.Embed:
    """The challenge's message in its current state (:func:`state_of`); ``replaced_by``: the challenge that
    replaced a next round's (state ``replaced``)."""
    state = state_of(challenge)
    challenger, opponent = mention(challenge.challenger_id), mention(challenge.opponent_id)
    title = f"Challenge #{challenge.id}: {game.heading}"
    when = f"<t:{unix(challenge)}:R>"
    record = continued(challenge)
    if record is not None:
        title = f"Challenge #{challenge.id}: {game.heading}, next round of combat #{record}"
    if state == "open" and record is not None:
        title += " · waiting for the opponent"
        positions = _positions(challenge)
        attacker, defender = (mention(player) for player in players_of(challenge))
        text = (f"{challenger} asks {opponent} to fight the next round of agreed combat #{record}, {attacker} "
                f"(attacker) against {defender} (defender): the survivors as the record left them, below. "
                f"{positions}\n\nNothing is rolled until both accept: the dice are already drawn, and their "
                f"commitment is below.\n\n**{opponent}**: **Accept** or **Decline** (to fight it with other "
                f"positions, decline and continue it yourself).\n**{challenger}**: **Cancel**.\n"
                f"Expires {when}.")  # fmt: skip
    elif state == "open":
        title += " · waiting for the opponent"
        text = (f"{challenger} (attacker) challenges {opponent} (defender). Nothing is rolled until both accept the "
                f"same sides: the dice are already drawn, and their commitment is below.\n\n"
                f"**{opponent}**: **Accept**, **Change my side** (your own units, or one of your rosters), or "
                f"**Decline**.\n**{challenger}**: **Cancel**.\nExpires {when}.")  # fmt: skip
    elif state == "changed":
        title += f" · changed (version {challenge.inputs_version})"
        text = (f"{opponent} changed their side (version {challenge.inputs_version}) and accepts it.\n\n"
                f"**{challenger}**: **Accept** these sides, or **Cancel**. {opponent} may change again.\n"
                f"Expires {when}.")  # fmt: skip
    elif state == "resolved":
        title += " · accepted"
        text = f"Accepted by {challenger} and {opponent}: resolved" + (
            f" as record #{challenge.record_id}." if challenge.record_id is not None else "."
        )
    elif state == "declined":
        title += " · declined"
        text = f"{opponent} declined {challenger}'s challenge. Nothing was rolled."
    elif state == "cancelled":
        title += " · cancelled"
        text = f"{challenger} cancelled the challenge to {opponent}. Nothing was rolled."
    elif state == "replaced":
        title += " · replaced"
        newer = "a newer challenge" if replaced_by is None else f"challenge #{replaced_by}"
        text = (f"Replaced by {newer}, for the same next round of combat #{record}: one next round is "
                "challenged at a time. Nothing was rolled.")  # fmt: skip
    else:
        title += " · expired"
        text = (f"{challenger}'s challenge to {opponent} expired {when} before both accepted. Nothing was rolled: "
                "challenge again with the same command.")  # fmt: skip
    embed = discord.Embed(title=cut(title, 256), description=text, colour=CHALLENGE_COLOURS[state])
    inputs = challenge.inputs
    attacker_player, defender_player = players_of(challenge)
    embed.add_field(name="Attacker", value=_side_field(str(inputs.get("attacker", "")), attacker_player, state),
                    inline=False)  # fmt: skip
    defender_field = _side_field(str(inputs.get("defender", "")), defender_player, state)
    embed.add_field(name="Defender" + (" (changed)" if challenge.inputs_version > 1 else ""), value=defender_field,
                    inline=False)  # fmt: skip
    embed.add_field(name="Options", value=options_text(inputs, game), inline=False)
    embed.add_field(name="Dice committed in advance", value=commitment_text(challenge, state), inline=False)
    embed.set_footer(text=f"Challenge #{challenge.id} · sides version {challenge.inputs_version}")
    if len(embed) > EMBED_TOTAL:  # a last guard: the description gives way, the sides and the commitment stay
        embed.description = cut(text, max(0, len(text) - (len(embed) - EMBED_TOTAL)))
    return embed


def _positions(challenge: StoredChallenge) -> str:
    """A next round's positions for the description, cut (with where the rest is) when too long."""
    positions = str(challenge.inputs.get("positions") or "")
    if len(positions) <= POSITIONS:
        return escape(positions)
    # "Positions for round N: attacker: ...; defender: ...": each side keeps its opening, cut between units.
    head, marker, defender = positions.partition("; defender: ")
    if not marker:
        return _cut_units(positions, POSITIONS) + f" ({ATTACHED}.)"
    attacker_room = max(POSITIONS // 2, POSITIONS - len(marker) - len(defender))
    return (_cut_units(head, attacker_room) + escape(marker) + _cut_units(defender, POSITIONS - attacker_room)
            + f" ({ATTACHED}.)")  # fmt: skip


def _cut_units(text: str, limit: int) -> str:
    """``text`` (units joined by '; '), escaped, about ``limit`` characters at most: cut between units, saying how
    many are not shown."""
    if len(text) <= limit:
        return escape(text)
    units = text.split("; ")
    shown: list[str] = []
    for unit in units:
        if len("; ".join([*shown, unit])) + len(f"; … (+{len(units)} more units)") > limit:
            break
        shown.append(unit)
    if not shown:
        return escape(text[: limit - 1].rsplit(" ", 1)[0]) + " …"
    return escape("; ".join(shown)) + f"; … (+{len(units) - len(shown)} more units)"


def cut_anything(challenge: StoredChallenge) -> bool:
    """Whether the message cuts a side or the positions (then its file holds them whole)."""
    inputs = challenge.inputs
    sides = (str(inputs.get("attacker", "")), str(inputs.get("defender", "")))
    return any(ATTACHED in _side_field(side) for side in sides) or (
        continued(challenge) is not None and len(str(inputs.get("positions") or "")) > POSITIONS
    )


def challenge_file(challenge: StoredChallenge) -> tuple[str, str] | None:
    """(file name, Markdown) of what the message cuts, whole: the sides as read, a next round's positions and the
    options; None when nothing is cut."""
    if not cut_anything(challenge):
        return None
    inputs = challenge.inputs
    parts = [f"# Challenge #{challenge.id}, sides version {challenge.inputs_version}", ""]
    for name in ("attacker", "defender"):
        parts += [f"## {name.capitalize()}", "", "```", str(inputs.get(name, "")), "```", ""]
    if positions := inputs.get("positions"):
        parts += ["## Positions", "", str(positions), ""]
    options = inputs.get("options") or {}
    parts += ["## Options", "", " ".join(f"{key}:{value}" for key, value in options.items()) or "none", ""]
    return f"challenge-{challenge.id}.md", "\n".join(parts)


def commitment_text(challenge: StoredChallenge, state: str) -> str:
    """The commitment's field, by state: an open challenge's seed is revealed by its result; a closed one's never
    is (nothing was rolled), and a resolved one's result shows it."""
    head = f"SHA-256 commitment:\n`{challenge.commitment}`\n"
    if state in ("open", "changed"):
        return head + ("The seed was drawn when the challenge was made; the result reveals it with its salt, and "
                       "/verify checks that they hash to this.")  # fmt: skip
    if state == "resolved":
        return head + "Revealed with the result, seed and salt: /verify checks that they hash to this."
    return head + "No result: this seed is never revealed or used."


def continued(challenge: StoredChallenge) -> int | None:
    """The record a continuation challenge's next round continues (its inputs say so), else None."""
    number = challenge.inputs.get("continues")
    return number if isinstance(number, int) else None


def reveal_text(challenge: StoredChallenge, record_id: int | None) -> str:
    """The reveal under a resolved challenge's result: the seed and salt that hash to the commitment shown before."""
    check = f"`/verify record:{record_id}` checks it." if record_id is not None else ""
    return (f"**Challenge #{challenge.id} accepted by {mention(challenge.challenger_id)} and "
            f"{mention(challenge.opponent_id)}.** Dice committed in advance, revealed: seed `{challenge.seed}`, "
            f"salt `{challenge.salt}`; SHA-256 commitment `{challenge.commitment}`. {check}").strip()  # fmt: skip


__all__ = [
    "challenge_embed",
    "challenge_file",
    "commitment_text",
    "continued",
    "cut_anything",
    "options_text",
    "players_of",
    "reveal_text",
    "state_of",
]
