"""A league's pages: standings (the same computation as /league standings), the rating chart as SVG, the matches,
seasons, a player's history; and their JSON and CSV twins.

Everything here is served only for a league whose server opted in (``/settings web value:public``); anything else
(no such league, a server that has not opted in or has just opted out, a season or a player that is not there)
is the one not-found page. The standings are ``store.leagues.standings``, the very call ``/league standings``
makes, so the page is served from the same snapshot (cached by league version); the chart is the bot's chart,
drawn as SVG and kept in memory by league version. Players are shown by the display names the bot has cached for
their server, else as "a player" (never a person's raw id); an erased user is the pseudonym the store holds.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.access import OPERATOR, Actor
from bot.ids import id_in_text
from bot.leagues.chart import chart_summary, chart_title, rating_svg
from bot.leagues.export import matches_csv, standings_csv
from bot.leagues.model import LeagueInfo, MatchInfo, Standings
from bot.leagues.standings import TIE_BREAKERS, Row
from bot.storage import Store
from bot.web.keys import SETTINGS, STORE
from bot.web.pages import html, not_found
from rules_core import RefereeError

PAGE_SIZE = 50  # matches on one page
CHARTS_KEPT = 64  # SVG charts kept in memory (by league, season and version)
UNNAMED = "a player"
JSON_TYPE = "application/json"
VERBS = {"win": "beat", "draw": "drew with", "loss": "lost to"}


async def combat_links(store: Store, matches: Iterable[MatchInfo], guild_id: str) -> dict[int, str]:
    """The web addresses of the combats the matches list that are public combats of the league's server: by their
    unguessable slug, never by record id (a private combat a match lists is named, not linked)."""
    slugs = await store.records.public_slugs((c for m in matches for c in m.combats), guild_id)
    return {record_id: f"/c/{slug}" for record_id, slug in slugs.items()}


class ChartCache:
    """The rating charts drawn, newest used last; the oldest dropped past ``size``."""

    def __init__(self, size: int = CHARTS_KEPT) -> None:
        self.size = size
        self._charts: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()

    def get(self, key: tuple[int, int, int]) -> bytes | None:
        found = self._charts.get(key)
        if found is not None:
            self._charts.move_to_end(key)
        return found

    def put(self, key: tuple[int, int, int], svg: bytes) -> None:
        self._charts[key] = svg
        self._charts.move_to_end(key)
        while len(self._charts) > self.size:
            self._charts.popitem(last=False)


CHARTS = web.AppKey("league_charts", ChartCache)


def _store(request: web.Request) -> Store:
    return request.app[STORE]


def _public(request: web.Request, guild_id: str) -> bool:
    return request.app[SETTINGS].effective(guild_id, None).web_public


def whole(text: str) -> int:
    """``text`` as an id or a page number (bot/ids.py: ASCII digits, within the tables' bound); else not found."""
    if (number := id_in_text(text)) is None:
        raise not_found()
    return number


def _number(request: web.Request, name: str) -> int | None:
    text = request.query.get(name)
    return None if text is None else whole(text)


@dataclass(frozen=True, slots=True)
class Shown:
    """What a league's pages show: the league, a season's standings, the players' labels."""

    league: LeagueInfo
    actor: Actor
    standings: Standings
    labels: dict[str, str]


async def _league(request: web.Request) -> tuple[LeagueInfo, Actor]:
    """The league of the address, if its server has opted in; else not found."""
    league_id = whole(request.match_info["league_id"])
    try:
        league = await _store(request).leagues.get(league_id, actor=OPERATOR)
    except RefereeError:
        raise not_found() from None
    if not _public(request, league.guild_id):
        raise not_found()
    return league, Actor("web", guild=league.guild_id)


async def labels(store: Store, guild_id: str, players: Iterable[str]) -> dict[str, str]:
    """Every player as the pages show them: the display name cached for the server; else a pseudonym or an offline
    name as it is, and a Discord id as "a player", numbered in the order given ("a player (1)", "a player (2)": the
    standings' order first) when there are several, so no two rows or legend lines look alike."""
    wanted = list(dict.fromkeys(players))
    known = await store.leagues.names(guild_id, wanted)
    unnamed = [p for p in wanted if p not in known and p.isdigit()]
    numbered = {p: f"{UNNAMED} ({n})" if len(unnamed) > 1 else UNNAMED for n, p in enumerate(unnamed, start=1)}
    return {p: known[p].name if p in known else numbered.get(p, p) for p in wanted}


async def _shown(
    request: web.Request, found: tuple[LeagueInfo, Actor] | None = None, extra: Iterable[str] = ()
) -> Shown:
    league, actor = found or await _league(request)
    store = _store(request)
    try:
        table = await store.leagues.standings(league.id, actor=actor, season=_number(request, "season"))
    except RefereeError:
        raise not_found() from None  # a season that is not there
    players = [row.player for row in table.rows] + list(extra)
    return Shown(table.league, actor, table, await labels(store, league.guild_id, players))


def standing(row: Row, labels: dict[str, str]) -> dict[str, Any]:
    return {"rank": row.rank, "player": row.player, "name": labels.get(row.player, UNNAMED), "played": row.played,
            "won": row.won, "drawn": row.drawn, "lost": row.lost, "points": row.points,
            "rating": round(row.rating, 1)}  # fmt: skip


def match_item(
    match: MatchInfo, labels: dict[str, str], links: dict[int, str], agreed: Collection[int] = ()
) -> dict[str, Any]:
    return {
        "id": match.id, "season": match.season, "status": match.status, "date": match.created_at.date().isoformat(),
        "reported_at": match.created_at.isoformat(), "player": match.reporter,
        "player_name": labels.get(match.reporter, UNNAMED), "opponent": match.opponent,
        "opponent_name": labels.get(match.opponent, UNNAMED), "result": match.result, "verb": VERBS[match.result],
        "score": match.score,
        "combats": [{"id": c, "link": links.get(c), "agreed": c in agreed} for c in match.combats],
    }  # fmt: skip


async def _matches_page(
    request: web.Request, shown: Shown, player: str | None = None
) -> tuple[list[MatchInfo], int, int, int]:
    """A page of the season's matches (or of a player's, every season), newest first: (matches, page, pages,
    total); a page past the last is not found."""
    store, league = _store(request), shown.league
    season = None if player is not None else shown.standings.season
    total = await store.matches.count_in_league(league.id, actor=shown.actor, season=season, player=player)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = _number(request, "page") or 1
    if page > pages:
        raise not_found()
    matches = await store.matches.in_league(league.id, actor=shown.actor, season=season, player=player,
                                            limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)  # fmt: skip
    return matches, page, pages, total


def _page_dict(
    matches: list[MatchInfo], page: int, pages: int, total: int, labels: dict[str, str], *, links: dict[int, str],
    agreed: Collection[int],
) -> dict[str, Any]:  # fmt: skip
    return {"page": page, "pages": pages, "total": total, "page_size": PAGE_SIZE,
            "items": [match_item(m, labels, links, agreed) for m in matches]}  # fmt: skip


async def agreed_combats(store: Store, matches: Iterable[MatchInfo]) -> set[int]:
    """Which of the combats the matches list both players agreed to (issue 24): each is marked on the page."""
    return set(await store.matches.agreements(c for m in matches for c in m.combats))


def _league_dict(league: LeagueInfo) -> dict[str, Any]:
    return {"id": league.id, "name": league.name, "game": league.game, "season": league.season,
            "season_open": league.season_open, "require_agreed": league.require_agreed}  # fmt: skip


def _json(data: dict[str, Any]) -> web.Response:
    return web.Response(text=json.dumps(data, ensure_ascii=False, indent=1), content_type=JSON_TYPE)


async def league_data(request: web.Request) -> dict[str, Any]:
    """The league page's content, the same for the page and its JSON twin."""
    league, actor = await _league(request)
    season = _number(request, "season") or league.season
    if season > league.season:
        raise not_found()
    # The page's matches first, so their players are named with the table's.
    probe = Shown(league, actor, Standings(league, season, (), league.version, cached=False), {})
    matches, page, pages, total = await _matches_page(request, probe)
    shown = await _shown(request, (league, actor), [p for m in matches for p in (m.reporter, m.opponent)])
    table = shown.standings
    return {
        "league": _league_dict(shown.league),
        "season": table.season,
        "season_open": table.season == shown.league.season and shown.league.season_open,
        "seasons": list(range(1, shown.league.season + 1)),
        "standings": [standing(row, shown.labels) for row in table.rows],
        "chart_alt": chart_summary(table.rows, shown.labels),
        "matches": _page_dict(
            matches,
            page,
            pages,
            total,
            shown.labels,
            links=await combat_links(_store(request), matches, league.guild_id),
            agreed=await agreed_combats(_store(request), matches),
        ),
        "tie_breakers": list(TIE_BREAKERS),
    }


async def league_page(request: web.Request) -> web.Response:
    data = await league_data(request)
    return html("league.html", title=data["league"]["name"], **data)


async def league_json(request: web.Request) -> web.Response:
    data = await league_data(request)
    del data["tie_breakers"], data["chart_alt"]
    return _json(data)


async def ratings_svg(request: web.Request) -> web.Response:
    shown = await _shown(request)
    table = shown.standings
    key = (shown.league.id, table.season, table.version)
    charts = request.app[CHARTS]
    svg = charts.get(key)
    if svg is None:
        title = chart_title(shown.league.name, table.season)
        svg = await asyncio.to_thread(rating_svg, table.rows, title, shown.labels)
        charts.put(key, svg)
    return web.Response(body=svg, content_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


async def player_data(request: web.Request) -> dict[str, Any]:
    user = request.match_info["user_id"]
    league, actor = await _league(request)
    probe = Shown(league, actor, Standings(league, league.season, (), league.version, cached=False), {})
    matches, page, pages, total = await _matches_page(request, probe, player=user)
    if total == 0:
        raise not_found()  # never played in it
    shown = await _shown(request, (league, actor), [user, *(p for m in matches for p in (m.reporter, m.opponent))])
    row = next((r for r in shown.standings.rows if r.player == user), None)
    return {
        "league": _league_dict(shown.league),
        "player": {"id": user, "name": shown.labels[user]},
        "season": shown.standings.season,
        "seasons": list(range(1, shown.league.season + 1)),
        "standing": None if row is None else standing(row, shown.labels),
        "matches": _page_dict(
            matches,
            page,
            pages,
            total,
            shown.labels,
            links=await combat_links(_store(request), matches, league.guild_id),
            agreed=await agreed_combats(_store(request), matches),
        ),
    }


async def player_page(request: web.Request) -> web.Response:
    data = await player_data(request)
    return html("league_player.html", title=f"{data['player']['name']} · {data['league']['name']}", **data)


async def player_json(request: web.Request) -> web.Response:
    return _json(await player_data(request))


def _csv(text: str, filename: str) -> web.Response:
    return web.Response(text=text, content_type="text/csv", charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})  # fmt: skip


async def matches_csv_file(request: web.Request) -> web.Response:
    """Every match of the league, as ``/league export`` gives it but for the columns no page shows (the notes,
    the organiser's id)."""
    league, actor = await _league(request)
    store = _store(request)
    matches = await store.matches.in_league(league.id, actor=actor)
    table = await store.leagues.standings(league.id, actor=actor)  # its players first: numbered as the page does
    players = [row.player for row in table.rows] + [p for m in matches for p in (m.reporter, m.opponent)]
    names = await labels(store, league.guild_id, players)
    agreed = await agreed_combats(store, matches)
    return _csv(matches_csv(matches, names, public=True, agreed=agreed), f"league-{league.id}-matches.csv")


async def standings_csv_file(request: web.Request) -> web.Response:
    shown = await _shown(request)
    return _csv(standings_csv(shown.standings.rows, shown.labels),
                f"league-{shown.league.id}-season-{shown.standings.season}-standings.csv")  # fmt: skip


def add_routes(app: web.Application) -> None:
    """The league pages' routes."""
    app[CHARTS] = ChartCache()
    app.router.add_get("/l/{league_id}.json", league_json)
    app.router.add_get("/l/{league_id}", league_page)
    app.router.add_get("/l/{league_id}/ratings.svg", ratings_svg)
    app.router.add_get("/l/{league_id}/matches.csv", matches_csv_file)
    app.router.add_get("/l/{league_id}/standings.csv", standings_csv_file)
    app.router.add_get("/l/{league_id}/players/{user_id}.json", player_json)
    app.router.add_get("/l/{league_id}/players/{user_id}", player_page)


__all__ = ["CHARTS", "PAGE_SIZE", "ChartCache", "add_routes", "combat_links", "labels", "league_data", "player_data"]
