"""Jinja2 templates, autoescaped, rendered to whole HTML responses with the site's headers."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,  # every template, whatever its name: a unit's name or a note is never markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["static"] = static_url
    return env


def static_url(name: str) -> str:
    """A static file's address, its version (content hash) appended so a new stylesheet is never served stale."""
    return f"/static/{name}?v={_version(name)}"


@functools.cache
def _version(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def html(template: str, *, status: int = 200, **context: Any) -> web.Response:
    """``template`` rendered with ``context`` as an HTML page."""
    body = environment().get_template(template).render(**context)
    return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")


def not_found() -> web.HTTPNotFound:
    """The one answer for anything not served: missing, private, or of a server that has not opted in (the same
    page and status, so nobody learns which)."""
    body = environment().get_template("not_found.html").render(title="Not found")
    return web.HTTPNotFound(text=body, content_type="text/html")


__all__ = ["environment", "html", "not_found"]
