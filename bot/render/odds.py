"""The odds as shown: plain lines (the terminal, and the embed's text: ``bot.render.embeds.odds_embed``) and a PNG
chart (outcomes, and each side's losses). No Discord here: ``referee odds`` never loads it."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from bot.render.chart_style import TEXT_PT, dark_figure, style_axes, suptitle
from bot.render.colours import ATTACKER_CHART, CHART_TEXT, DEFENDER_CHART, DRAW_CHART, chart
from bot.render.markdown import cut
from rules_core.odds import Odds
from rules_core.registry import get_game

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MAX_CHART_BYTES = 100 * 1024


def percent(p: float) -> str:
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def odds_lines(result: Odds, title: str) -> list[str]:
    """The odds as plain lines (the terminal; the bot's embed uses the same words)."""
    how = "exact" if result.method == "exact" else f"Monte Carlo, {result.trials} trials, 95% intervals"
    lines = [f"{title}: odds ({how})"]

    def shown(key: str, p: float) -> str:
        bounds = result.intervals.get(key)
        return percent(p) + ("" if bounds is None else f" [{percent(bounds[0])} to {percent(bounds[1])}]")

    attacker = shown("p_attacker_wins", result.p_attacker_wins)
    defender = shown("p_defender_wins", result.p_defender_wins)
    lines.append(f"  Attacker wins {attacker} · defender wins {defender} · draw {shown('p_draw', result.p_draw)}")
    if result.p_no_winner:
        lines.append(f"  No fight at all: {shown('p_no_winner', result.p_no_winner)}")
    breaks = get_game(result.game).outcome_words.loser_breaks  # the game's own words for what is counted
    lines.append(f"  {breaks}: {shown('p_loser_breaks', result.p_loser_breaks)}")
    lines.append("  Outcomes: " + ", ".join(f"{name.replace('_', ' ')} {percent(p)}"
                                            for name, p in result.outcomes.items() if p > 0))  # fmt: skip
    for side in ("attacker", "defender"):
        losses = result.losses(side)
        lines.append(f"  {side.capitalize()} losses: expected {result.expected_losses(side):.2f}")
        cells = [f"{count}: {percent(p)}" for count, p in enumerate(losses) if p >= 0.0005]
        lines.append("    " + " · ".join(cells))
        step = max(1, len(losses) // 6)
        at_least = [f">={n} {percent(result.p_at_least(side, n))}" for n in range(step, len(losses), step)]
        if at_least:
            lines.append("    at least: " + " · ".join(at_least))
    lines.extend(f"  {note}" for note in result.notes)
    return lines


def odds_chart(result: Odds, title: str) -> bytes:
    """Three panels, one above the other: who wins, and the distribution of each side's losses; PNG under 100 KiB."""
    buffer = io.BytesIO()
    odds_figure(result, title).savefig(buffer, format="png")
    return buffer.getvalue()


def odds_figure(result: Odds, title: str) -> Figure:
    """The chart :func:`odds_chart` saves, stacked for a phone (the tests read its texts and colours)."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter  # noqa: PLC0415 (imported on first use)

    counted = get_game(result.game).losses_count  # "models", or "units" (stands, war engines)
    figure = dark_figure(7.6)
    outcome, attacker, defender = figure.subplots(3, 1, height_ratios=[1, 1.3, 1.3])
    labels = ["attacker", "draw", "defender"]
    values = [result.p_attacker_wins, result.p_draw + result.p_no_winner, result.p_defender_wins]
    colours = [chart(ATTACKER_CHART), chart(DRAW_CHART), chart(DEFENDER_CHART)]
    bars = outcome.barh(labels, values, color=colours)
    outcome.invert_yaxis()  # the attacker on top, as in the lines above the chart
    outcome.set_xlim(0, 1.3)  # room for the percentages
    style_axes(outcome, "Who wins")
    outcome.set_xticks([])
    outcome.grid(False)
    for bar, value in zip(bars, values, strict=True):
        outcome.annotate(f" {percent(value)}", (value, bar.get_y() + bar.get_height() / 2), va="center",
                         fontsize=TEXT_PT, color=chart(CHART_TEXT))  # fmt: skip
    for axes, side, colour in (
        (attacker, "attacker", chart(ATTACKER_CHART)),
        (defender, "defender", chart(DEFENDER_CHART)),
    ):
        losses = result.losses(side)
        axes.bar(range(len(losses)), losses, color=colour)
        style_axes(axes, f"{side.capitalize()} losses (mean {result.expected_losses(side):.1f})", f"{counted} lost")
        axes.set_ylim(0, max(max(losses, default=0), 0.05) * 1.15)
        axes.xaxis.set_major_locator(MaxNLocator(6, integer=True))
        axes.yaxis.set_major_locator(MaxNLocator(3))
        axes.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        axes.grid(axis="x", visible=False)
    suptitle(figure, cut(title, 90))
    return figure


__all__ = ["MAX_CHART_BYTES", "odds_chart", "odds_figure", "odds_lines", "percent"]
