"""A PNG chart of the leaders' Elo ratings over the season (matplotlib, drawn off screen, no global state)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any, cast

from bot.leagues.standings import START_RATING, Row

TOP = 8  # lines on one chart stay readable up to about this many


def player_label(player: str, names: Mapping[str, str] | None = None) -> str:
    """A player as a reader knows them: their display name; else a pseudonym or offline name as it is, and a
    Discord id nobody could name by the end of it (``…0101``), never the 18 digits."""
    name = (names or {}).get(player)
    if name:
        return name
    return f"…{player[-4:]}" if player.isdigit() else player


def legend_labels(rows: Sequence[Row], names: Mapping[str, str] | None = None, *, top: int = TOP) -> list[str]:
    """The chart's legend, line by line: the ``top`` best-placed players who have played, with their rank."""
    return [f"{row.rank}. {player_label(row.player, names)}" for row in rows if row.history][:top]


def rating_chart(rows: Sequence[Row], title: str, names: Mapping[str, str] | None = None, *, top: int = TOP) -> bytes:
    """The rating of the ``top`` best-placed players who have played, match by match; PNG bytes.

    ``names`` labels players (see :func:`player_label`); :func:`legend_labels` is the legend's text.
    """
    # Imported on first use: it takes a moment, and only charts need it.
    from matplotlib.figure import Figure  # noqa: PLC0415

    figure = Figure(figsize=(8, 4.5), dpi=100)
    axes = figure.subplots()
    shown = [row for row in rows if row.history][:top]
    for row in shown:
        times = [row.history[0][1], *(when for _, when, _ in row.history)]
        ratings = [START_RATING, *(rating for _, _, rating in row.history)]
        label = player_label(row.player, names)
        # Datetimes on the x axis: matplotlib converts them, though its stubs only name arrays.
        axes.step(
            cast(Any, times),
            ratings,
            where="post",
            label=f"{row.rank}. {label}",  # as legend_labels() says
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
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


__all__ = ["TOP", "legend_labels", "player_label", "rating_chart"]
