"""The web pages: read-only views of the same store the bot writes, for people without the server (a league's
standings, matches and ratings; the full record of a combat, reached by an unguessable link).

A third front end beside the terminal and Discord: ``app`` builds the aiohttp application (security headers, a
per-address rate limit, error pages, the static stylesheet), ``pages`` renders Jinja2 templates (autoescaped),
``combats`` and ``leagues`` add their routes. Nothing is served unless its server opted in (``/settings web
public``); a server that opts out stops being served at once (the settings cache, bot/server_settings/cache.py).
See docs/web.md.
"""
