"""A PNG chart of the leaders' Elo ratings over the season (matplotlib, drawn off screen, no global state)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from bot.leagues.standings import START_RATING, Row

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TOP = 8  # lines on one chart stay readable up to about this many


def rating_chart(rows: Sequence[Row], title: str, names: Mapping[str, str] | None = None, *, top: int = TOP) -> bytes:
    """The rating of the ``top`` best-placed players who have played, match by match; PNG bytes.

    ``names`` labels players (Discord ids otherwise; the bot passes ranks when it knows no names).
    """
    buffer = io.BytesIO()
    rating_figure(rows, title, names, top=top).savefig(buffer, format="png")
    return buffer.getvalue()


def rating_figure(rows: Sequence[Row], title: str, names: Mapping[str, str] | None = None, *, top: int = TOP) -> Figure:
    """The chart :func:`rating_chart` saves (the tests read its texts and its date axis)."""
    # Imported on first use: it takes a moment, and only charts need it.
    from matplotlib.figure import Figure  # noqa: PLC0415

    figure = Figure(figsize=(8, 4.5), dpi=100)
    axes = figure.subplots()
    shown = [row for row in rows if row.history][:top]
    for row in shown:
        times = [row.history[0][1], *(when for _, when, _ in row.history)]
        ratings = [START_RATING, *(rating for _, _, rating in row.history)]
        label = (names or {}).get(row.player, row.player)
        # Datetimes on the x axis: matplotlib converts them, though its stubs only name arrays.
        axes.step(
            cast(Any, times),
            ratings,
            where="post",
            label=f"{row.rank}. {label}",
            linewidth=1.6,
        )
    axes.axhline(START_RATING, color="grey", linewidth=0.8, linestyle=":")
    axes.set_title(title)
    axes.set_ylabel("Elo rating")
    axes.grid(alpha=0.3)
    if shown:
        axes.legend(loc="upper left", fontsize="small", ncols=2)
    else:
        axes.text(0.5, 0.5, "No confirmed games yet", ha="center", va="center", transform=axes.transAxes)
    figure.autofmt_xdate()
    figure.tight_layout()
    return figure


__all__ = ["TOP", "rating_chart", "rating_figure"]
