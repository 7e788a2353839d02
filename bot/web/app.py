"""The aiohttp application of the web pages, and running it: alone (``referee web``) or inside the bot's process
(``referee bot --web``).

Every answer passes the security headers and the per-address rate limit; anything not served is one 404 page,
whatever the reason (missing, private, a server that has not opted in); an unexpected failure is logged with an
error id and shown as one sentence, never a traceback. The pages read the store and the settings cache the bot
also keeps (loaded at start, polled every second: bot/server_settings/cache.py), so a server that opts out is no
longer served within a second, whichever process it told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from bot.log_lines import has_control
from bot.server_settings.cache import SettingsCache
from bot.storage import Store
from bot.storage.failures import is_transient
from bot.web import combats, leagues
from bot.web.config import WebConfig
from bot.web.keys import CONFIG, LIMIT, SETTINGS, STORE
from bot.web.pages import html, not_found
from bot.web.security import Handler, RateLimit, client_address, security_headers

log = logging.getLogger("referee.web")
STATIC = Path(__file__).with_name("static")
RETRY_AFTER_SECONDS = 5  # what a page asked for while the database restarts tells the browser to wait


def make_app(store: Store, settings: SettingsCache, config: WebConfig) -> web.Application:
    """The pages over ``store``, with ``settings`` (kept current by whoever owns it) saying who opted in."""
    app = web.Application(middlewares=[security_headers, malformed, rate_limited, failures])
    app[STORE] = store
    app[SETTINGS] = settings
    app[CONFIG] = config
    app[LIMIT] = RateLimit(config.web_rate)
    app.router.add_get("/", home)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/static/{name}", static_file)
    combats.add_routes(app)
    leagues.add_routes(app)
    return app


async def home(_request: web.Request) -> web.Response:
    return html("home.html", title="Tabletop referee")


STATIC_FILES = {path.name: path for path in STATIC.iterdir() if path.is_file()}


async def static_file(request: web.Request) -> web.StreamResponse:
    """A file of bot/web/static by its name; anything else (a missing file, the folder) the one 404 page, where
    aiohttp's static route answered an empty octet-stream 404 and a plain 403."""
    path = STATIC_FILES.get(request.match_info["name"])
    if path is None:
        raise not_found()
    return web.FileResponse(path)


async def healthz(_request: web.Request) -> web.Response:
    return web.Response(text="ok")


@web.middleware
async def malformed(request: web.Request, handler: Handler) -> web.StreamResponse:
    """An address holding a control character (a NUL, a newline, an escape) is no page: the one 404, before any
    route reads it (PostgreSQL refuses a NUL in text, and a newline has no business in a log)."""
    if has_control(request.path):
        raise not_found()
    return await handler(request)


@web.middleware
async def rate_limited(request: web.Request, handler: Handler) -> web.StreamResponse:
    if request.path.startswith("/static/") or request.path == "/healthz":
        return await handler(request)
    address = client_address(request, trust_proxy=request.app[CONFIG].web_trust_proxy)
    wait = request.app[LIMIT].take(address)
    if wait:
        seconds = max(1, round(wait))
        body = html("error.html", status=429, title="Slow down",
                    message=f"Too many requests from your address: try again in {seconds} seconds.")  # fmt: skip
        body.headers["Retry-After"] = str(seconds)
        return body
    return await handler(request)


@web.middleware
async def failures(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPNotFound as error:
        if error.content_type == "text/html":
            raise
        raise not_found() from None  # aiohttp's own 404 (no route) gets the site's page
    except web.HTTPException:
        raise
    except Exception as error:
        if is_transient(error):  # the database restarting: it passes, so the visitor is asked to come back
            log.warning("the database failed on %r (%s): answered 503", request.path,
                        " ".join(str(error).split())[:300])  # fmt: skip
            body = html("error.html", status=503, title="Back in a moment",
                        message="The referee's database is restarting: try again in a few seconds.")  # fmt: skip
            body.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return body
        error_id = secrets.token_hex(4)
        log.exception("error %s on %s", error_id, request.path)
        return html("error.html", status=500, title="Something went wrong",
                    message=f"The page could not be shown (error id {error_id}). Try again later.")  # fmt: skip


@contextlib.asynccontextmanager
async def serving(store: Store, settings: SettingsCache, config: WebConfig) -> AsyncIterator[web.AppRunner]:
    """The pages served on the configured host and port while the block runs."""
    runner = web.AppRunner(make_app(store, settings, config), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, config.web_host, config.web_port)
    await site.start()
    log.info("web pages on http://%s:%d (public address: %s)", config.web_host, config.web_port,
             config.web_base_url or "WEB_BASE_URL unset")  # fmt: skip
    try:
        yield runner
    finally:
        await runner.cleanup()


async def run_web(config: WebConfig) -> None:
    """``referee web``: open the store, load and poll the settings, serve until stopped."""
    store = await Store.open(config.database_url)
    settings = SettingsCache()
    try:
        await settings.load(store)
        poll = asyncio.create_task(settings.poll(store), name="referee-web-settings-poll")
        try:
            async with serving(store, settings, config):
                await asyncio.Event().wait()
        finally:
            poll.cancel()
            await asyncio.gather(poll, return_exceptions=True)
    finally:
        await store.close()


__all__ = ["CONFIG", "LIMIT", "SETTINGS", "STORE", "make_app", "run_web", "serving"]
