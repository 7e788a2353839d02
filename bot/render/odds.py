"""The odds as shown: plain lines (the terminal, and the embed's text: ``bot.render.embeds.odds_embed``) and a PNG
chart (outcomes, and each side's losses). No Discord here: ``referee odds`` never loads it."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from bot.render.colours import ATTACKER_CHART, DEFENDER_CHART, DRAW_CHART, chart
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
    lines.append(f"  The loser breaks or is destroyed: {shown('p_loser_breaks', result.p_loser_breaks)}")
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
    """Three panels: who wins, and the distribution of each side's losses; PNG under 100 KiB."""
    buffer = io.BytesIO()
    odds_figure(result, title).savefig(buffer, format="png")
    return buffer.getvalue()


def odds_figure(result: Odds, title: str) -> Figure:
    """The chart :func:`odds_chart` saves (the tests read its texts and colours)."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (imported on first use: it takes a moment)

    counted = get_game(result.game).losses_count  # "models", or "units" (stands, war engines)
    figure = Figure(figsize=(9, 3.6), dpi=80)
    outcome, attacker, defender = figure.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1.5, 1.5]})
    labels = ["attacker", "draw", "defender"]
    values = [result.p_attacker_wins, result.p_draw + result.p_no_winner, result.p_defender_wins]
    bars = outcome.bar(labels, values, color=[chart(ATTACKER_CHART), chart(DRAW_CHART), chart(DEFENDER_CHART)])
    outcome.set_ylim(0, 1)
    outcome.set_title("Who wins")
    for bar, value in zip(bars, values, strict=True):
        outcome.annotate(percent(value), (bar.get_x() + bar.get_width() / 2, value), ha="center", va="bottom",
                         fontsize=8)  # fmt: skip
    for axes, side, colour in (
        (attacker, "attacker", chart(ATTACKER_CHART)),
        (defender, "defender", chart(DEFENDER_CHART)),
    ):
        losses = result.losses(side)
        axes.bar(range(len(losses)), losses, color=colour)
        axes.set_title(f"{side.capitalize()} losses (mean {result.expected_losses(side):.1f})")
        axes.set_xlabel(f"{counted} lost")
        axes.set_ylim(0, max(max(losses, default=0), 0.05) * 1.15)
    figure.suptitle(cut(title, 90), fontsize=10)
    figure.tight_layout()
    return figure


__all__ = ["MAX_CHART_BYTES", "odds_chart", "odds_figure", "odds_lines", "percent"]
