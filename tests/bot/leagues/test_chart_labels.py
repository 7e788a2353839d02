"""The rating chart's legend names players (issue 20: it showed raw ids, "…0101"): a display name where the bot
knows one; else a pseudonym or offline name as it is, and only a Discord id nobody could name by its end."""

from __future__ import annotations

from datetime import UTC, datetime

from matplotlib.backends.backend_agg import FigureCanvasAgg

from bot.leagues.chart import TOP, legend_labels, player_label, rating_chart, rating_figure, rating_svg
from bot.leagues.standings import Row
from bot.render.odds import odds_chart
from rules_core import get_game
from rules_core.odds import odds

WHEN = datetime(2026, 11, 1, tzinfo=UTC)


def played(player: str, rank: int) -> Row:
    return Row(player=player, played=1, won=1, drawn=0, lost=0, points=3, rating=1516.0, rank=rank,
               history=[(1, WHEN, 1516.0)])  # fmt: skip


def test_the_legend_is_names_in_rank_order_of_those_who_played() -> None:
    rows = [played("811111111111110101", 1), Row(player="822222222222220202", rank=2), played("deleted-1a2b3c4d", 3)]
    names = {"811111111111110101": "Ann the Bold", "822222222222220202": "Bob"}
    assert legend_labels(rows, names) == ["1. Ann the Bold", "3. deleted-1a2b3c4d"]  # Bob has not played
    assert legend_labels(rows) == ["1. …0101", "3. deleted-1a2b3c4d"]
    assert player_label("local") == "local"
    assert player_label("811111111111110101", {"811111111111110101": ""}) == "…0101"


def test_at_most_top_players_are_drawn_and_the_chart_is_a_png() -> None:
    rows = [played(str(800000000000000000 + rank), rank) for rank in range(1, TOP + 3)]
    assert len(legend_labels(rows)) == TOP
    assert rating_chart(rows, "Autumn, season 1: ratings", {rows[0].player: "Ann"}).startswith(b"\x89PNG")


def test_names_with_dollar_signs_are_drawn_as_typed_not_read_as_formulas() -> None:
    """matplotlib reads text between two $ as a formula: a display name '$\\foo$' failed the whole chart (a 500 on
    the web page, no chart in /league standings), and 'Price $5 and $6' lost its dollars (found by a review)."""
    rows = [played("811111111111110101", 1), played("811111111111110102", 2)]
    names = {"811111111111110101": r"$\foo$", "811111111111110102": "Price $5 and $6"}
    title = r"League $\bar$ of $3, season 1: ratings"
    assert rating_chart(rows, title, names).startswith(b"\x89PNG")
    figure = rating_figure(rows, title, names)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # drawing is where a formula fails
    (legend,) = figure.legends
    assert [text.get_text() for text in legend.get_texts()] == [r"1. \$\foo\$", r"2. Price \$5 and \$6"]
    assert rating_svg(rows, title, names).lstrip().startswith(b"<?xml")


def test_an_odds_chart_titled_with_dollar_signs_is_drawn() -> None:
    result = odds(get_game("duel"), "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", method="exact")
    assert odds_chart(result, r"$\foo$ v Price $5").startswith(b"\x89PNG")
