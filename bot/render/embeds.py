"""Report -> Discord embeds, paged so that no message ever exceeds Discord's limits.

The result fits a phone's screen: page 1 is the summary (who won, what happens next, colour by outcome) and one
short line a step (the game's ``step_line``), under a short title ("40K assault: held"); only a long fight's lines
go on to later pages. The full steps with every die (:func:`roll_pages`) and the referee's choices
(:func:`why_embed`) are shown privately by the result's buttons, and the full log attached to long results holds
everything. A stored record's history (void, notes) opens page 1 and is sized with it. Every page is one embed,
well inside the per-message budget, so a page can be swapped in place by the paging buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import discord

from bot.render.colours import INFO_COLOUR, ODDS_COLOUR, WINNER_COLOURS
from bot.render.markdown import cut, escape, step_lines
from bot.render.odds import odds_lines
from bot.render.summary import Players, headline, house_rules_text, read_lines, result_title, table_lines
from rules_core import compact
from rules_core.odds import Odds
from rules_core.registry import Game, games_named
from rules_core.report import Report

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
EMBEDS_PER_MESSAGE = 10

NEXT = "What happens next"
HISTORY = 2_000  # of page 1's description at most, for a record's void and note lines: the summary keeps the rest


class Noted(Protocol):
    """One event of a record's history (``bot.storage.records.RecordNote``): a void or a note."""

    @property
    def kind(self) -> str: ...
    @property
    def actor(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def at(self) -> datetime: ...


def history_lines(history: Sequence[Noted]) -> str:
    """A record's void and notes as page 1 opens with them: the void first, then the notes, oldest first."""
    lines = []
    for note in sorted(history, key=lambda n: n.kind != "void"):  # stable: each kind keeps its order
        who = f"<@{note.actor}>" if note.actor.isdigit() else escape(note.actor)
        label = "**VOID**" if note.kind == "void" else "Note"
        lines.append(f"{label} by {who} <t:{int(note.at.timestamp())}:R>: {escape(note.reason)}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str

    @property
    def size(self) -> int:
        return len(self.name) + len(self.value)


def step_fields(report: Report) -> list[Field]:
    """Each step as one field, split over several when its text is longer than a field may hold."""
    fields: list[Field] = []
    for step in report.steps:
        lines = step_lines(step) or ["—"]
        chunks: list[str] = []
        current = ""
        for whole in lines:
            line = cut(whole, FIELD_VALUE)
            if current and len(current) + 1 + len(line) > FIELD_VALUE:
                chunks.append(current)
                current = line
            else:
                current = f"{current}\n{line}" if current else line
        chunks.append(current)
        title = escape(step.title)
        for number, chunk in enumerate(chunks):
            name = title if number == 0 else f"{title} (cont.)"
            fields.append(Field(cut(name, FIELD_NAME), chunk))
    return fields


def _summary(
    report: Report, record_id: int | None, not_recorded: str | None, pending: bool, players: Players | None = None,
    *, house_rules: Sequence[str] = (), room: int = DESCRIPTION,
) -> str:  # fmt: skip
    """Page 1's text: how each side was read, then the summary at table level (who won, by unit and player; what
    each side removes; the moves; what comes next; the house rules it used), then the record line; at most ``room``
    characters. A fight too long for it cuts the table's middle (the full steps are a page or a tap away), never the
    lines after it: the next round's command, the house rules and whether it was recorded."""
    first = f"**{headline(report, players, escape)}**"
    after: list[str] = []  # below the table: the next round's command, then the house rules
    if record_id is not None and not pending and not not_recorded:
        # The record's number is in the footer and Verify a button away (/replay and /verify take it); only the next
        # round's command is worth a line, one tap from being copied.
        game = _game(report)
        if game is not None and any(ev.kind == "continues" for step in report.steps for ev in step.events):
            after.append(f"Next round: `/{game.command} continue record:{record_id}`")
    if house := house_rules_text(report.inputs.options, house_rules):
        after.append(f"*{escape(house)}*")
    status = ""
    if pending:
        status = "Recording this combat…"
    elif not_recorded:
        status = f"⚠️ Not recorded ({escape(not_recorded)}): this result stands, but it is not in the history."

    def joined(read: str, table: str) -> str:
        return "\n\n".join(part for part in (read, "\n".join(line for line in (first, table, *after) if line), status)
                           if part)  # fmt: skip

    read, table = escape(read_line(report)), "\n".join(table_lines(report, escape))
    whole = joined(read, table)
    if len(whole) <= room:
        return whole
    fixed = len(joined("", "")) + 2 + 1  # the read line's blank line and the table's line break, beside the rest
    read = cut(read, max(1, min(len(read), (room - fixed) // 3)))  # the read line, cut between units, keeps a third
    return cut(joined(read, cut(table, max(1, room - fixed - len(read)))), room)


STEPS = "Steps"


def _game(report: Report) -> Game | None:
    """The game a report names, or None for one this install does not know (an old record still shows)."""
    found = games_named(report.game)
    return found[0] if len(found) == 1 else None


def read_line(report: Report) -> str:
    """How each side was read, attacker v defender, on one line (a phone's screen is short):
    ``Read: 9× Tactical Marine, 1× Sergeant v 14× Ork Boy, 1× Nob``."""
    return "Read: " + " v ".join(line.split(": ", 1)[-1] for line in read_lines(report))


def listed_steps(report: Report) -> list[str]:
    """The steps as the result message lists them, one short plain line each (the game's ``step_line``): every step
    but those the summary above says whole (a game's empty line; "What happens next", said by Move and Next)."""
    game = _game(report)
    lines = (game.step_line(step) if game is not None else compact.step_line(step) for step in report.steps
             if step.title != NEXT)  # fmt: skip
    return [line for line in lines if line]


def step_line_fields(report: Report) -> list[Field]:
    """The steps one short line each (the game's ``step_line``), packed into as few fields as the limits allow."""
    lines = [escape(line) for line in listed_steps(report)]
    fields: list[Field] = []
    current = ""
    for text in lines:
        line = cut(f"• {text}", FIELD_VALUE)
        if current and len(current) + 1 + len(line) > FIELD_VALUE:
            fields.append(Field(STEPS if not fields else f"{STEPS} (cont.)", current))
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        fields.append(Field(STEPS if not fields else f"{STEPS} (cont.)", current))
    return fields


def result_heading(report: Report, title: str | None = None) -> str:
    """A result's title, short enough for one line on a phone: ``40K assault: held``."""
    if title is not None:
        return cut(f"{title}: {report.result.outcome.replace('_', ' ')}", TITLE)
    return cut(result_title(report), TITLE)


def _paged(
    heading: str, description: str | None, footer_base: str, fields: list[Field], colour: int
) -> list[discord.Embed]:
    """Fields over as many one-embed pages as Discord's limits need; page 1 opens with ``description``."""
    pages: list[list[Field]] = []
    current: list[Field] = []
    budget = EMBED_TOTAL - len(heading) - len(description or "") - len(footer_base) - 40  # " · page 10/10"
    used = 0
    for field in fields:
        if current and (len(current) == FIELDS or used + field.size > budget):
            pages.append(current)
            current, used = [], 0
            budget = EMBED_TOTAL - len(heading) - len(" (continued)") - len(footer_base) - 40
        current.append(field)
        used += field.size
    pages.append(current)
    embeds = []
    for number, page in enumerate(pages, start=1):
        embed = discord.Embed(
            title=heading if number == 1 else cut(heading + " (continued)", TITLE),
            description=description if number == 1 else None,
            colour=colour,
        )
        for field in page:
            embed.add_field(name=field.name, value=field.value, inline=False)
        suffix = f" · page {number}/{len(pages)}" if len(pages) > 1 else ""
        embed.set_footer(text=cut(footer_base + suffix, FOOTER))
        embeds.append(embed)
    return embeds


def _footer(report: Report, record_id: int | None) -> str:
    return f"{report.game} · seed {report.seed}" + (f" · record #{record_id}" if record_id is not None else "")


def render_pages(
    report: Report, *, record_id: int | None = None, not_recorded: str | None = None, title: str | None = None,
    pending: bool = False, history: str = "", players: Players | None = None, house_rules: Sequence[str] = (),
    full_steps: bool = False, summary_only: bool = False,
) -> list[discord.Embed]:  # fmt: skip
    """The result as the channel shows it: the summary, then one short line a step (the dice are one tap away:
    :func:`roll_pages`), paged only when a long fight's lines outgrow one embed; every page inside Discord's
    limits. ``players``: the attacker's and the defender's mentions, named in the summary's headline.

    ``pending``: the result is not stored yet; the page is the summary alone (the steps follow in the edit that adds
    the record id), so the first answer costs almost nothing to build. ``history``: a stored record's void and note
    lines (:func:`history_lines`), which open page 1 and are counted in its size like the rest. ``house_rules``: the
    names of the options that came from the server's house rules (the record keeps them), said in the summary.

    ``full_steps``: every step in full with its dice (:func:`step_fields`, what Show rolls shows), for a player who
    prefers it to one line a step. ``summary_only``: the summary alone, no steps (a results channel's copy).
    """
    colour = WINNER_COLOURS.get(str(report.result.winner.value), WINNER_COLOURS["none"])
    if history:
        opening = cut(history, HISTORY)
        room = DESCRIPTION - len(opening) - 2
        description = f"{opening}\n\n" + _summary(
            report, record_id, not_recorded, pending, players, house_rules=house_rules, room=room
        )
    else:
        description = _summary(report, record_id, not_recorded, pending, players, house_rules=house_rules)
    if pending or summary_only:
        fields: list[Field] = []
    else:
        fields = step_fields(report) if full_steps else step_line_fields(report)
    return _paged(result_heading(report, title), description, _footer(report, record_id), fields, colour)


def roll_pages(report: Report, *, record_id: int | None = None) -> list[discord.Embed]:
    """Every step in full, with every die grouped and marked (what the "Show rolls" button shows privately), paged
    inside Discord's limits."""
    heading = cut(f"Rolls: {result_heading(report)}", TITLE)
    colour = WINNER_COLOURS.get(str(report.result.winner.value), WINNER_COLOURS["none"])
    return _paged(heading, None, _footer(report, record_id), step_fields(report), colour)


def why_embed(report: Report, *, record_id: int | None = None) -> discord.Embed | None:
    """How the referee made the players' choices in this combat (which models die, a tied save...): the "Why?"
    button's answer; None when it made none."""
    notes = compact.policy_notes(report.steps)
    if not notes:
        return None
    text = cut("\n\n".join(escape(note) for note in notes), DESCRIPTION)
    return discord.Embed(title=cut(f"Why: {result_heading(report)}", TITLE), description=text,
                         colour=INFO_COLOUR).set_footer(text=_footer(report, record_id))  # fmt: skip


def odds_embed(result: Odds, title: str, *, house_rules: str = "") -> discord.Embed:
    """The odds as an embed; ``house_rules``: the line naming the house rules they were worked out under."""
    lines = odds_lines(result, title)
    text = "\n".join([*([f"*{escape(house_rules)}*"] if house_rules else []), *lines[1:]])
    embed = discord.Embed(title=cut(lines[0], 256), description=cut(text, 4096), colour=ODDS_COLOUR)
    how = "exact" if result.method == "exact" else f"Monte Carlo, {result.trials} trials"
    embed.set_footer(text=f"{result.game} · {how} · the same rules and choices as the referee")
    return embed
