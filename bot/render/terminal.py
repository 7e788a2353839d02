"""Report -> terminal text with rich (the offline `referee` command)."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from bot.render.summary import headline, read_lines, roll_text, tally
from rules_core.report import Report, Roll, Step

_LEADING = frozenset({"strike", "allocation"})


def _roll_line(roll: Roll) -> Text:
    need, outcome = roll_text(roll)
    line = Text("  ")
    line.append(roll.purpose, style="cyan")
    if need:
        line.append(f" needs {need}", style="dim")
    line.append(": ")
    rerolled = {r.index: r for r in roll.rerolls}
    per_die = roll.combine == "each" and roll.target is not None
    for index, face in enumerate(roll.dice):
        if index:
            line.append(" ")
        style = "bold green" if per_die and roll.success[index] else ("dim" if per_die else "bold")
        if index in rerolled:
            line.append(f"{rerolled[index].before}→", style="dim strike")
        line.append(str(face), style=style)
    line.append(f"  → {outcome}", style="bold")
    return line


def render_step(step: Step) -> RenderableType:
    parts: list[RenderableType] = [Rule(Text(step.title, style="bold"), align="left")]
    # "strike" events say who attacks with what, "allocation" events where the hits fall: they read best
    # before the dice.
    leading = [ev for ev in step.events if ev.kind in _LEADING]
    for ev in leading:
        parts.append(Text("  " + str(ev.get("note", "")), style="italic"))
    for roll in step.rolls:
        parts.append(_roll_line(roll))
    for ev in step.events:
        if ev.kind in _LEADING:
            continue
        note = ev.get("note")
        if note:
            style = "red" if ev.kind == "casualty" else ("yellow" if ev.kind == "policy" else "")
            parts.append(Text("  • " + str(note), style=style))
        elif ev.kind == "casualty":
            models = ev.get("models")
            parts.append(Text(f"  • {ev.get('unit')}: {models} model{'s' if models != 1 else ''} removed", style="red"))
    return Group(*parts)


def render_report(report: Report) -> RenderableType:
    colour = {"attacker": "green", "defender": "red", "draw": "yellow"}.get(str(report.result.winner), "blue")
    summary = Panel(
        Text("\n".join([*read_lines(report), headline(report), tally(report)])),
        title=f"[bold]{report.game}[/bold]: {report.result.outcome}",
        subtitle=f"seed {report.seed} · engine {report.engine_version}",
        border_style=colour,
    )
    return Group(summary, *(render_step(step) for step in report.steps))


def print_report(report: Report, console: Console | None = None) -> None:
    (console or Console()).print(render_report(report))
