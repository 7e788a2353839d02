"""A league's pages: standings (the same computation as /league standings), the rating chart as SVG, the matches,
seasons, a player's history; and their JSON and CSV twins."""

from __future__ import annotations

from aiohttp import web


def add_routes(app: web.Application) -> None:
    """The league pages' routes (issue 22: being built)."""
    del app
