"""A PNG chart of the leaders' Elo ratings over the season (matplotlib, drawn off screen, no global state)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from bot.leagues.standings import START_RATING, Row
from bot.render.chart_style import TEXT_PT, dark_figure, literal, style_axes, suptitle
from bot.render.colours import CHART_GRID, CHART_TEXT, RATING_LINES, chart

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TOP = 8  # lines on one chart stay readable up to about this many
MARGIN = timedelta(minutes=30)  # at least this much of the date axis before the first game and after the last


def player_label(player: str, names: Mapping[str, str] | None = None) -> str:
    """A player as a reader knows them: their display name; else a pseudonym or offline name as it is, and a
    Discord id nobody could name by the end of it (``…0101``), never the 18 digits."""
    name = (names or {}).get(player)
    if name:
        return name
    return f"…{player[-4:]}" if player.isdigit() else player


def chart_title(league: str, season: int) -> str:
    """The rating chart's title, the same in Discord and on the web."""
    return f"{league}, season {season}: ratings"


def legend_labels(rows: Sequence[Row], names: Mapping[str, str] | None = None, *, top: int = TOP) -> list[str]:
    """The chart's legend, line by line: the ``top`` best-placed players who have played, with their rank."""
    return [f"{row.rank}. {player_label(row.player, names)}" for row in rows if row.history][:top]


def rating_chart(rows: Sequence[Row], title: str, names: Mapping[str, str] | None = None, *, top: int = TOP) -> bytes:
    """The rating of the ``top`` best-placed players who have played, match by match; PNG bytes.

    ``names`` labels players (see :func:`player_label`); :func:`legend_labels` is the legend's text.
    """
    buffer = io.BytesIO()
    rating_figure(rows, title, names, top=top).savefig(buffer, format="png")
    return buffer.getvalue()


def rating_svg(rows: Sequence[Row], title: str, names: Mapping[str, str] | None = None, *, top: int = TOP) -> bytes:
    """The same chart as :func:`rating_chart`, as SVG (the web page's): text drawn as paths, so it reads the same
    without the fonts, and no timestamp, so the same table gives the same bytes."""
    buffer = io.BytesIO()
    rating_figure(rows, title, names, top=top).savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def chart_summary(rows: Sequence[Row], names: Mapping[str, str] | None = None, *, top: int = TOP) -> str:
    """The chart in one sentence, for its alt text: the leader, and the range the charted ratings span."""
    shown = [row for row in rows if row.history][:top]
    if not shown:
        return "Rating chart: no confirmed games yet."
    ratings = [START_RATING] + [rating for row in shown for _, _, rating in row.history]
    leader = shown[0]
    return (
        f"Elo ratings over the season of the top {len(shown)} players: {player_label(leader.player, names)} leads "
        f"at {leader.rating:.0f}; ratings range from {min(ratings):.0f} to {max(ratings):.0f}."
    )


def rating_figure(rows: Sequence[Row], title: str, names: Mapping[str, str] | None = None, *, top: int = TOP) -> Figure:
    """The chart :func:`rating_chart` saves (the tests read its texts and its date axis).

    Drawn as every chart is (bot.render.chart_style: dark, phone-sized); the legend goes under the plot, one name a
    line; the date axis spans the games played, with a margin, so one evening's games read as hours, not years.
    """
    # Imported on first use: it takes a moment, and only charts need it.
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter  # noqa: PLC0415

    shown = [row for row in rows if row.history][:top]
    figure = dark_figure(3.4 + 0.3 * len(shown))
    axes = figure.subplots()
    style_axes(axes, ylabel="Elo rating")
    when = [when for row in shown for _, when, _ in row.history]
    if when:
        margin = max((max(when) - min(when)) * 0.05, MARGIN)
        start, end = min(when) - margin, max(when) + margin
        axes.set_xlim(cast(Any, start), cast(Any, end))
    for index, row in enumerate(shown):
        # From the first game to the end of the axis: the rating holds after the last game.
        times = [row.history[0][1], *(when for _, when, _ in row.history), end]
        ratings = [START_RATING, *(rating for _, _, rating in row.history), row.history[-1][2]]
        label = player_label(row.player, names)
        # Datetimes on the x axis: matplotlib converts them, though its stubs only name arrays.
        axes.step(
            cast(Any, times),
            ratings,
            where="post",
            label=literal(f"{row.rank}. {label}"),  # as legend_labels() says, drawn as typed
            linewidth=2.2,
            color=chart(RATING_LINES[index % len(RATING_LINES)]),
            linestyle=("-", "--")[index // len(RATING_LINES) % 2],
        )
    axes.axhline(START_RATING, color=chart(CHART_GRID), linewidth=1, linestyle=":")
    suptitle(figure, title)
    if shown:
        locator = AutoDateLocator(minticks=2, maxticks=4)  # type: ignore[no-untyped-call]  # matplotlib's stubs
        axes.xaxis.set_major_locator(locator)
        axes.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
        axes.xaxis.get_offset_text().set_fontsize(TEXT_PT)  # the date above the hours
        axes.xaxis.get_offset_text().set_color(chart(CHART_TEXT))
        legend = figure.legend(loc="outside lower left", fontsize=TEXT_PT, ncols=1, frameon=False)
        for text in legend.get_texts():
            text.set_color(chart(CHART_TEXT))
    else:
        axes.set_xticks([])
        axes.set_yticks([])
        axes.text(0.5, 0.5, "No confirmed games yet", ha="center", va="center", transform=axes.transAxes,
                  fontsize=TEXT_PT, color=chart(CHART_TEXT))  # fmt: skip
    return figure


__all__ = [
    "TOP",
    "chart_summary",
    "chart_title",
    "legend_labels",
    "player_label",
    "rating_chart",
    "rating_figure",
    "rating_svg",
]
