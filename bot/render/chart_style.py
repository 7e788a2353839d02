"""How every chart is drawn: for Discord's dark theme, at a phone's size.

Discord shows an attached image about 300 CSS px wide in its phone app on a 390-px screen (docs/screenshots/ shows
it), whatever the image's own width. A chart is therefore drawn narrow (``WIDTH`` inches) with its text sized so
that, scaled to that width, no letter is under 14 px; on the embed's own dark grey so it sits in the theme (and
stays legible in the light theme, which a transparent chart with light text would not). Colours come from
:mod:`bot.render.colours`. matplotlib is imported by the callers on first use, never here at import.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING

from bot.render.colours import CHART_BACKGROUND, CHART_GRID, CHART_TEXT, chart

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PHONE_IMAGE_WIDTH = 300  # CSS px an attached image gets in Discord's phone app on a 390-px-wide screen
SMALLEST_TEXT_PX = 14  # on that phone
WIDTH = 4.0  # inches: a chart is as narrow as a phone
DPI = 120  # 480 px wide: sharp when Discord scales it, and under 100 KiB
# The text in points that is SMALLEST_TEXT_PX once the chart is scaled to PHONE_IMAGE_WIDTH (rounded up to 0.5).
TEXT_PT = math.ceil(SMALLEST_TEXT_PX * 72 * WIDTH / PHONE_IMAGE_WIDTH * 2) / 2
TITLE_PT = TEXT_PT + 1.5


def dark_figure(height: float) -> Figure:
    """An empty figure ``WIDTH`` by ``height`` inches on the dark background, laid out without overlaps."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (imported on first use: it takes a moment)

    return Figure(figsize=(WIDTH, height), dpi=DPI, facecolor=chart(CHART_BACKGROUND), layout="constrained")


def style_axes(axes: Axes, title: str = "", xlabel: str = "", ylabel: str = "") -> None:
    """Light text, muted spines and grid, and every label at least TEXT_PT."""
    axes.set_facecolor(chart(CHART_BACKGROUND))
    text = chart(CHART_TEXT)
    axes.tick_params(labelsize=TEXT_PT, colors=text, which="both")
    for spine in axes.spines.values():
        spine.set_color(chart(CHART_GRID))
    axes.spines[["top", "right"]].set_visible(False)
    axes.grid(color=chart(CHART_GRID), alpha=0.35, linewidth=0.8)
    axes.set_axisbelow(True)
    if title:
        axes.set_title(title, fontsize=TITLE_PT, color=text, loc="left")
    if xlabel:
        axes.set_xlabel(xlabel, fontsize=TEXT_PT, color=text)
    if ylabel:
        axes.set_ylabel(ylabel, fontsize=TEXT_PT, color=text)


def literal(text: str) -> str:
    """Text players typed (a league's or a unit's name, a display name), drawn as typed: matplotlib reads text
    between two ``$`` as a formula (``$\\foo$`` would fail the whole chart, "$5 and $6" would be drawn wrong), so
    each ``$`` is escaped."""
    return text.replace("$", r"\$")


def suptitle(figure: Figure, title: str, width: int = 30) -> None:
    """The chart's title (as typed: :func:`literal`), wrapped to fit the phone's width."""
    wrapped = "\n".join(textwrap.wrap(title, width))
    figure.suptitle(literal(wrapped), fontsize=TITLE_PT, color=chart(CHART_TEXT))


__all__ = ["DPI", "PHONE_IMAGE_WIDTH", "SMALLEST_TEXT_PX", "TEXT_PT", "TITLE_PT", "WIDTH", "dark_figure",
           "literal", "style_axes", "suptitle"]  # fmt: skip
