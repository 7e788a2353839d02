"""A combat's page, reached only by its unguessable link: its summary, every step with all its dice, its seed and
engine version, its void and note history, and a verify link; and its report JSON."""

from __future__ import annotations

from aiohttp import web


def add_routes(app: web.Application) -> None:
    """The combat pages' routes (issue 22: being built)."""
    del app
