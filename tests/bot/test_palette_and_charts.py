"""One palette for attacker, defender, draw and error, apart for colour-blind players; charts drawn for Discord's
dark theme at phone size (text at least 14 px as a phone shows them, a dark background, the embeds' colours) and a
date axis that fits the games (issue 20, "Colours say the wrong thing")."""

from __future__ import annotations

import io
import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import matplotlib.dates
import matplotlib.image
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from bot.leagues.chart import rating_chart, rating_figure
from bot.leagues.standings import MatchResult, Points, compute
from bot.render.chart_style import PHONE_IMAGE_WIDTH
from bot.render.colours import ERROR_COLOUR, WINNER_COLOURS, chart
from bot.render.odds import odds_chart, odds_figure
from rules_core.odds import odds

# Machado, Oliveira and Fernandes (2009): full dichromacy, applied to linear RGB.
VISIONS = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
APART = 25.0  # CIE76 distance: 2.3 is just noticeable; 25 is two clearly different colours at a glance


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(colour: int, vision: str) -> tuple[float, float, float]:
    """The colour as a viewer with ``vision`` sees it, in CIELAB (D65)."""
    rgb = [linear((colour >> shift) & 0xFF) for shift in (16, 8, 0)]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in VISIONS[vision])
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, (
        0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883  # fmt: skip

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(first: int, second: int, vision: str) -> float:
    return sum((a - b) ** 2 for a, b in zip(lab(first, vision), lab(second, vision), strict=True)) ** 0.5


ROLES = {"attacker": WINNER_COLOURS["attacker"], "defender": WINNER_COLOURS["defender"],
         "draw": WINNER_COLOURS["draw"], "error": ERROR_COLOUR}  # fmt: skip


def test_the_simulation_tells_red_from_green_only_with_normal_vision() -> None:
    red, green = 0xE74C3C, 0x2ECC71  # the old defender and attacker
    assert distance(red, green, "normal") > 60
    assert distance(red, green, "deuteranopia") < APART  # what a colour-blind player could not tell apart


@pytest.mark.parametrize("vision", VISIONS)
def test_the_roles_are_apart_for_every_vision(vision: str) -> None:
    close = {f"{a}/{b}": round(distance(ROLES[a], ROLES[b], vision), 1)
             for a, b in itertools.combinations(ROLES, 2) if distance(ROLES[a], ROLES[b], vision) < APART}  # fmt: skip
    assert close == {}


def test_a_defenders_win_is_not_an_error() -> None:
    assert WINNER_COLOURS["defender"] != ERROR_COLOUR
    assert ERROR_COLOUR not in WINNER_COLOURS.values()


# --- the charts ---------------------------------------------------------------------------------------------------


def odds_40k() -> Any:
    return odds("40k", "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades",
                "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+", method="monte-carlo", trials=2000)  # fmt: skip


def odds_boltaction() -> Any:
    return odds("boltaction", "8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco", reaction_shots=10,
                distance=9.0)  # fmt: skip


EVENING = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)


def evening_rows(matches: int = 3) -> Any:
    played = [MatchResult(n, EVENING + timedelta(minutes=75 * n), *pair, "win")
              for n, pair in enumerate([("ann", "bob"), ("cid", "ann"), ("bob", "cid")][:matches])]  # fmt: skip
    return compute(["ann", "bob", "cid"], played, Points())


def figures() -> dict[str, Figure]:
    return {
        "odds 40k": odds_figure(odds_40k(), "Warhammer 40,000 assault phase (Trial Assault Rules): odds"),
        "odds boltaction": odds_figure(odds_boltaction(), "Bolt Action close quarters: odds"),
        "ratings": rating_figure(evening_rows(), "Autumn league: ratings", {"ann": "Ann", "bob": "Bo", "cid": "Cid"}),
        "ratings, no games": rating_figure(evening_rows(0), "Autumn league: ratings"),
    }


def shown_text(figure: Figure) -> list[tuple[str, float]]:
    """Every visible text of the drawn figure and its height in px as a phone shows the chart."""
    figure.draw_without_rendering()
    scale = PHONE_IMAGE_WIDTH / (figure.get_figwidth() * figure.dpi)
    return [(text.get_text(), text.get_fontsize() * figure.dpi / 72 * scale) for text in figure.findobj(Text)
            if text.get_visible() and text.get_text().strip()]  # fmt: skip


def test_every_charts_text_is_at_least_14_px_on_a_phone() -> None:
    small = {name: [(text, round(px, 1)) for text, px in shown_text(figure) if px < 14]
             for name, figure in figures().items()}  # fmt: skip
    assert {name: texts for name, texts in small.items() if texts} == {}


def luminance(pixel: Any) -> float:
    return float(0.2126 * pixel[0] + 0.7152 * pixel[1] + 0.0722 * pixel[2])


@pytest.mark.parametrize("png", ["odds", "ratings"])
def test_the_charts_are_dark_or_transparent(png: str) -> None:
    data = (odds_chart(odds_boltaction(), "Bolt Action close quarters: odds") if png == "odds"
            else rating_chart(evening_rows(), "Autumn league: ratings"))  # fmt: skip
    image = matplotlib.image.imread(io.BytesIO(data), format="png")
    height, width = image.shape[:2]
    corners = [image[0, 0], image[0, width - 1], image[height - 1, 0], image[height - 1, width - 1]]
    for corner in corners:  # the background: dark in Discord's dark theme, or see-through
        assert (len(corner) == 4 and corner[3] == 0) or luminance(corner) < 0.25
    assert len(data) < 100 * 1024


def test_the_odds_chart_colours_the_sides_as_the_result_embeds_do() -> None:
    figure = odds_figure(odds_boltaction(), "Bolt Action close quarters: odds")
    bars: dict[str, set[str]] = {}
    for axes in figure.axes:
        colours = {matplotlib.colors.to_hex(patch.get_facecolor()) for patch in axes.patches
                   if isinstance(patch, Rectangle)}  # fmt: skip
        bars[axes.get_title(loc="left").split(" ")[0].lower()] = colours
    attacker, defender, draw = (chart(WINNER_COLOURS[side]) for side in ("attacker", "defender", "draw"))
    assert bars["attacker"] == {attacker}
    assert bars["defender"] == {defender}
    assert bars["who"] == {attacker, draw, defender}


@pytest.mark.parametrize("matches", [1, 3])
def test_a_rating_chart_for_one_evening_spans_the_evening(matches: int) -> None:
    figure = rating_figure(evening_rows(matches), "Autumn league: ratings")
    [axes] = figure.axes
    start, end = (matplotlib.dates.num2date(limit) for limit in axes.get_xlim())
    assert start <= EVENING and end >= EVENING + timedelta(minutes=75 * (matches - 1))
    assert end - start <= timedelta(hours=12)  # was 2025 to 2029
    figure.draw_without_rendering()
    labels = [label.get_text() for label in axes.get_xticklabels() if label.get_text()]
    assert labels and not any("2025" in label or "2029" in label for label in labels)
