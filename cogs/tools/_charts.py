"""Quick rulings: the number needed for given values, read from the charts the games declare (``Game.charts``)."""

from __future__ import annotations

from rules_core.registry import all_charts

CHARTS = {chart.name: chart.title for chart in all_charts()}


def ruling(chart: str, first: int | None, second: int | None) -> str:
    """The answer in one or a few lines; ValueError naming what is missing."""
    found = next((known for known in all_charts() if known.name == chart), None)
    if found is None:
        raise ValueError(f"There is no chart '{chart}'. Charts: {', '.join(CHARTS)}.")
    values = [_one(value, what) for value, what in zip((first, second), found.needs, strict=False)]
    return found.answer(*values)


def _one(value: int | None, what: str) -> int:
    if value is None or not 1 <= value <= 10:
        raise ValueError(f"Give {what} as a: 1 to 10.")
    return value
