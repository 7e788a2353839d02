"""Report -> terminal text with rich (the offline `referee` command): the summary panel, and each step walked by
``bot.render.walk`` with one rich line per node."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from bot.render.colours import WINNER_COLOURS, chart
from bot.render.summary import read_lines, result_title, summary_lines
from bot.render.walk import SUCCESS, Face, Stringifier, group_text, grouped
from rules_core.report import Event, Report, Roll, Step


class TerminalLines(Stringifier[Text]):
    """Each node of a step as a line of rich text."""

    def leading(self, event: Event) -> Text:
        return Text("  " + str(event.get("note", "")), style="italic")

    def roll(self, roll: Roll, need: str, outcome: str, faces: list[Face]) -> Text:
        line = Text("  ")
        line.append(roll.purpose, style="cyan")
        if need:
            line.append(f" needs {need}", style="dim")
        line.append(": ")
        for number, group in enumerate(grouped(faces)):
            if number:
                line.append(" · ", style="dim")
            style = "bold green" if group.mark == SUCCESS else ("dim" if group.mark else "bold")
            counts = group.counts()
            if counts is not None:
                line.append(group_text(group), style=style)
                continue
            if group.mark:
                line.append(f"{group.mark} ", style=style)
            for index, face in enumerate(group.faces):
                if index:
                    line.append(" ")
                if face.before is not None:
                    line.append(f"{face.before}→", style="dim strike")
                line.append(str(face.value), style=style)
        line.append(f"  → {outcome}", style="bold")
        return line

    def note(self, event: Event) -> Text:
        style = "red" if event.kind == "casualty" else ("yellow" if event.kind == "policy" else "")
        return Text("  • " + str(event.get("note")), style=style)

    def casualty(self, event: Event) -> Text:
        models = event.get("models")
        return Text(f"  • {event.get('unit')}: {models} model{'s' if models != 1 else ''} removed", style="red")


def render_step(step: Step) -> RenderableType:
    return Group(Rule(Text(step.title, style="bold"), align="left"), *TerminalLines().step(step))


def render_report(report: Report) -> RenderableType:
    colour = chart(WINNER_COLOURS.get(str(report.result.winner), WINNER_COLOURS["none"]))  # Discord's palette too
    summary = Panel(
        Text("\n".join([*read_lines(report), *summary_lines(report)])),
        title=Text(result_title(report), style="bold"),
        subtitle=f"seed {report.seed} · engine {report.engine_version}",
        border_style=colour,
    )
    return Group(summary, *(render_step(step) for step in report.steps))


def print_report(report: Report, console: Console | None = None) -> None:
    (console or Console()).print(render_report(report))
