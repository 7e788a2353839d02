"""Report -> Discord-flavoured Markdown lines: the embeds' step text and the attached full log (each step walked by
``bot.render.walk``, one Markdown line per node)."""

from __future__ import annotations

import re

from bot.render.summary import headline, read_lines, table_lines
from bot.render.walk import Face, Stringifier, dice_text
from rules_core.report import Event, Report, Roll, Step

# Emphasis, code, spoilers, quotes, masked links, and the '<' of a mention, channel, emoji, timestamp or command
# ("2D6 <= 7" keeps its '<' as it is).
_SPECIAL = re.compile(r"([\\*_~`|>\[\]]|<(?=[@#:/]|a:|t:))")
_LINE_START = re.compile(r"^(\s*)(#|-#)", re.MULTILINE)  # a header or subtext line


def cut(text: str, limit: int) -> str:
    """``text`` at most ``limit`` characters long, ending in '…' when cut: every Discord limit (embeds, option
    descriptions, choices) is kept with it."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def escape(text: str) -> str:
    """Text a player wrote (unit names, notes, reasons, descriptions) shown as typed, never as Markdown: no emphasis,
    header, quote, masked link or mention breaks out (``[x](url)`` and ``<@id>`` show as written). The one function
    for such text; the bot's own mentions and formatting are added around it, never passed through it."""
    return _LINE_START.sub(r"\1\\\2", _SPECIAL.sub(r"\\\1", text))


class MarkdownLines(Stringifier[str]):
    """Each node of a step as a line of Discord-flavoured Markdown."""

    def leading(self, event: Event) -> str | None:
        note = event.get("note")
        return f"_{escape(str(note))}_" if note else None

    def roll(self, roll: Roll, need: str, outcome: str, faces: list[Face]) -> str:
        need_text = f" ({need})" if need else ""
        return f"*{escape(roll.purpose)}*{need_text}: {dice_text(faces)} → {outcome}"

    def note(self, event: Event) -> str:
        return f"• {escape(str(event.get('note')))}"

    def casualty(self, event: Event) -> str:
        return f"• {escape(str(event.get('unit')))}: {event.get('models')} removed"


def step_lines(step: Step) -> list[str]:
    """A step's lines in Markdown (the embeds' field text and the full log's body)."""
    return MarkdownLines().step(step)


def report_markdown(report: Report, *, record_id: int | None = None) -> str:
    """The whole combat as a Markdown document (attached to long results)."""
    out = [f"# {report.game}: {report.result.outcome.replace('_', ' ')}", "", *map(escape, read_lines(report)), "",
           f"**{headline(report, escape=escape)}**", "",
           *(f"- {line}" for line in table_lines(report, escape)), ""]  # fmt: skip
    out += [f"- Attacker: `{report.inputs.attacker}`", f"- Defender: `{report.inputs.defender}`"]
    options = ", ".join(f"{k}={v}" for k, v in report.inputs.options.items() if v is not None)
    if options:
        out.append(f"- Options: {options}")
    out.append("")
    for step in report.steps:
        out += [f"## {escape(step.title)}", "", *step_lines(step), ""]
    record = f"record #{record_id} · " if record_id is not None else ""
    out.append(f"_{record}seed {report.seed} · engine {report.engine_version}_")
    return "\n".join(out) + "\n"
