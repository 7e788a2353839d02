"""Report -> Discord-flavoured Markdown lines: the embeds' step text and the attached full log."""

from __future__ import annotations

import re

from bot.render.summary import headline, read_lines, roll_text, tally
from rules_core.report import Report, Roll, Step

LEADING = frozenset({"strike", "allocation"})  # who attacks with what / where hits fall: read before the dice
_SPECIAL = re.compile(r"([\\*_~`|>])")


def escape(text: str) -> str:
    """Text from players (unit names) shown literally, never as Markdown."""
    return _SPECIAL.sub(r"\\\1", text)


def roll_line(roll: Roll) -> str:
    need, outcome = roll_text(roll)
    rerolled = {r.index: r for r in roll.rerolls}
    per_die = roll.combine == "each" and roll.target is not None
    faces = []
    for index, face in enumerate(roll.dice):
        shown = f"**{face}**" if per_die and roll.success[index] else str(face)
        if index in rerolled:
            shown = f"~~{rerolled[index].before}~~→{shown}"
        faces.append(shown)
    need_text = f" ({need})" if need else ""
    return f"*{escape(roll.purpose)}*{need_text}: {' '.join(faces)} → {outcome}"


def step_lines(step: Step) -> list[str]:
    lines = [f"_{escape(str(ev.get('note')))}_" for ev in step.events if ev.kind in LEADING and ev.get("note")]
    lines += [roll_line(roll) for roll in step.rolls]
    for ev in step.events:
        if ev.kind in LEADING:
            continue
        note = ev.get("note")
        if note:
            lines.append(f"• {escape(str(note))}")
        elif ev.kind == "casualty":
            lines.append(f"• {escape(str(ev.get('unit')))}: {ev.get('models')} removed")
    return lines


def report_markdown(report: Report, *, record_id: int | None = None) -> str:
    """The whole combat as a Markdown document (attached to long results)."""
    out = [f"# {report.game}: {report.result.outcome.replace('_', ' ')}", "", *map(escape, read_lines(report)), "",
           f"**{headline(report)}**", "", escape(tally(report)), ""]  # fmt: skip
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
