"""A combat's page, reached only by its unguessable link: its summary, every step with all its dice, its seed and
engine version, its void and note history, and a verify link; and its report JSON.

``/c/{slug}`` (the page), ``/c/{slug}.json`` (the report JSON, as ``referee replay --json`` prints it) and
``/c/{slug}/verify`` (a re-run from its seed, under a stricter rate limit, its answer cached per record and engine
version). Each answers the one 404 page unless the record is public (not private, not from direct messages, so it
has a server) and its server publishes its pages (``/settings web public``): the settings cache is read on every
request, so a server that opts out is not served from the next refresh on. Players are named by the display names
the bot cached for the server, else "a player": never by a Discord id or mention.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.access import LOCAL_USER
from bot.render.summary import Players, headline, house_rules_text, read_lines, result_title, table_lines
from bot.render.walk import Face, Stringifier, face_text, grouped
from bot.server_settings.model import phrase
from bot.storage.records import StoredCombat
from bot.verification import Verdict, Verification, verify
from bot.web.keys import CONFIG, SETTINGS, STORE
from bot.web.pages import html, not_found
from bot.web.security import RateLimit, client_address
from rules_core import ENGINE_VERSION, RefereeError
from rules_core.registry import get_game
from rules_core.report import Event, Roll

SLUG = r"{slug:[A-Za-z0-9_-]{1,32}}"
VERIFY_PER_MINUTE = 10  # re-runs an address may ask for a minute (a page costs a query; a re-run the whole combat)
VERIFY_CACHED = 2_000  # verify answers kept in memory, the least recently asked forgotten first
VERIFY_LIMIT = web.AppKey("verify_limit", RateLimit)
_MENTION = re.compile(r"<@!?(\d+)>")  # a user, by name or nickname
_ROLE, _CHANNEL = re.compile(r"<@&\d+>"), re.compile(r"<#\d+>")
OPERATOR_WORDS = "the referee's operator"  # who acts from the terminal (`referee`): LOCAL_USER in the store


def add_routes(app: web.Application) -> None:
    """The combat pages' routes, their verify rate limit and verify cache."""
    app[VERIFY_LIMIT] = RateLimit(VERIFY_PER_MINUTE)
    app[VERIFIED] = VerifyCache(VERIFY_CACHED)
    app.router.add_get(f"/c/{SLUG}.json", combat_json)
    app.router.add_get(f"/c/{SLUG}/verify", combat_verify)
    app.router.add_get(f"/c/{SLUG}", combat_page)


async def published(request: web.Request) -> StoredCombat:
    """The record the slug names, if it may be shown on the web; else the one 404, whatever the reason."""
    settings = request.app[SETTINGS]

    def shown(private: bool, guild_id: str | None) -> bool:  # decided before the report is loaded
        return not private and guild_id is not None and settings.effective(guild_id, None).web_public

    stored = await request.app[STORE].records.by_slug(request.match_info["slug"], shown=shown)
    if stored is None or stored.personal:
        raise not_found()
    return stored


async def combat_json(request: web.Request) -> web.Response:
    """The report JSON (docs/report.md), exactly as ``referee replay --json`` prints it."""
    stored = await published(request)
    return web.Response(text=stored.report.to_json(), content_type="application/json", charset="utf-8")


async def combat_page(request: web.Request) -> web.Response:
    stored = await published(request)
    return html("combat.html", **await combat_context(request, stored))


async def combat_verify(request: web.Request) -> web.Response:
    """Re-run the record from its seed and say identical or altered: a stricter rate limit than the pages (a
    re-run costs the whole combat), the answer cached per record and engine version (and re-run when the row's
    report is no longer the one the answer was for)."""
    stored = await published(request)
    address = client_address(request, trust_proxy=request.app[CONFIG].web_trust_proxy)
    verification = request.app[VERIFIED].get(stored)
    if verification is None:
        if wait := request.app[VERIFY_LIMIT].take(address):
            seconds = max(1, round(wait))
            body = html("error.html", status=429, title="Slow down",
                        message=f"Verifying re-runs the whole combat: try again in {seconds} seconds.")  # fmt: skip
            body.headers["Retry-After"] = str(seconds)
            return body
        verification = await asyncio.to_thread(verify, stored)  # a whole combat re-run: off the event loop
        request.app[VERIFIED].put(stored, verification)
    context = await combat_context(request, stored)
    return html("verify.html", verification=verification, verdict=VERDICT_WORDS[verification.verdict], **context)


VERDICT_WORDS = {Verdict.IDENTICAL: "Identical", Verdict.ALTERED: "Altered", Verdict.OTHER_ENGINE: "Not re-run here"}


class VerifyCache:
    """Verify answers by (record id, engine version), each kept with a digest of what it checked (the report, and a
    challenge's commitment and row): a row edited since is re-run. Bounded: the least recently asked answers are
    forgotten first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.answers: OrderedDict[tuple[int, str], tuple[str, Verification]] = OrderedDict()

    @staticmethod
    def _digest(stored: StoredCombat) -> str:
        """Everything the answer was checked against: the report, and for a challenge's record its commitment, salt,
        agreement, seed column and the challenge's row as they stand (an edit of any of them is re-checked)."""
        checked = (stored.report_json, stored.commitment, stored.salt, stored.agreed_json, stored.row_seed,
                   repr(stored.challenge))  # fmt: skip
        return hashlib.sha256(repr(checked).encode("utf-8")).hexdigest()

    def get(self, stored: StoredCombat) -> Verification | None:
        found = self.answers.get((stored.id, ENGINE_VERSION))
        if found is None or found[0] != self._digest(stored):
            return None
        self.answers.move_to_end((stored.id, ENGINE_VERSION))
        return found[1]

    def put(self, stored: StoredCombat, verification: Verification) -> None:
        self.answers[(stored.id, ENGINE_VERSION)] = (self._digest(stored), verification)
        self.answers.move_to_end((stored.id, ENGINE_VERSION))
        while len(self.answers) > self.size:
            self.answers.popitem(last=False)


VERIFIED = web.AppKey("verified", VerifyCache)


# --- what the page shows ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiceGroup:
    mark: str  # ✔, ✘ or "" (dice read for their value)
    label: str  # the mark in words, for screen readers
    dice: str  # every die of the group, re-rolled ones as "2→5"


@dataclass(frozen=True, slots=True)
class RollRow:
    purpose: str
    need: str
    groups: tuple[DiceGroup, ...]
    count: int
    outcome: str
    rerolls: str


@dataclass(frozen=True, slots=True)
class Line:
    kind: str  # "note" (before or after the dice) or "roll"
    text: str = ""
    roll: RollRow | None = None


MARK_WORDS = {"✔": "successes", "✘": "failures", "": "dice"}


class WebLines(Stringifier[Line]):
    """A step's nodes for the page: notes as sentences, rolls as table rows with every die (never counted by face:
    the page has the room a Discord field has not)."""

    def leading(self, event: Event) -> Line | None:
        note = event.get("note")
        return Line("note", str(note)) if note else None

    def roll(self, roll: Roll, need: str, outcome: str, faces: list[Face]) -> Line:
        groups = tuple(DiceGroup(group.mark, MARK_WORDS.get(group.mark, "dice"),
                                 " ".join(face_text(face) for face in group.faces))
                       for group in grouped(faces))  # fmt: skip
        rerolls = ", ".join(f"{r.before}→{r.after}" for r in roll.rerolls)
        row = RollRow(roll.purpose, need, groups, len(roll.dice), outcome, rerolls)
        return Line("roll", roll=row)

    def note(self, event: Event) -> Line:
        return Line("note", str(event.get("note")))

    def casualty(self, event: Event) -> Line:
        return Line("note", f"{event.get('unit')}: {event.get('models')} removed")


async def combat_context(request: web.Request, stored: StoredCombat) -> dict[str, Any]:
    """What the combat's templates show (the page and its verify answer)."""
    report = stored.report
    assert stored.guild_id is not None  # published() checked it
    people = {stored.requested_by, *(n.actor for n in stored.history)} | (
        {stored.opponent} if stored.opponent else set()
    )
    people |= {m for n in stored.history for m in _MENTION.findall(n.reason)}
    known = await request.app[STORE].leagues.names(stored.guild_id, people)
    names = {user: shown.name for user, shown in known.items()}

    def person(user: str | None) -> str:
        if user is None:
            return "a player"
        if user == LOCAL_USER:
            return OPERATOR_WORDS
        if user in names:
            return names[user]
        return "a player" if user.isdigit() else user  # an erased user is a pseudonym already

    players: Players = (names.get(stored.requested_by),
                        names.get(stored.opponent) if stored.opponent else None)  # fmt: skip
    slug = stored.slug
    return {
        "title": result_title(report),
        "headline": headline(report, players),
        "reads": read_lines(report),
        "table": table_lines(report),
        "house_rules": house_rules_text(report.inputs.options, stored.house_rules),
        "report": report,
        "options": options_shown(report.game, report.inputs.options),
        "steps": [(step.title, WebLines().step(step)) for step in report.steps],
        "attacker_player": person(stored.requested_by),
        "defender_player": person(stored.opponent) if stored.opponent else "not named",
        "recorded": stored.created_at.strftime("%Y-%m-%d %H:%M UTC"),
        "recorded_iso": stored.created_at.isoformat(),
        "history": [
            {
                "kind": "Void" if note.kind == "void" else "Note",
                "by": person(note.actor),
                "at": note.at.strftime("%Y-%m-%d %H:%M UTC"),
                "at_iso": note.at.isoformat(),
                "reason": _mentions(note.reason, person),
            }
            for note in stored.history
        ],
        "voided": stored.voided,
        "record_id": stored.id,
        "page_url": f"/c/{slug}",
        "json_url": f"/c/{slug}.json",
        "verify_url": f"/c/{slug}/verify",
    }


def _mentions(text: str, person: Callable[[str], str]) -> str:
    """Discord's mentions in a note as words: a user by their name ("@Ann", else "@a player"), a role as "@a role", a
    channel as "#a channel" (never an id)."""
    text = _MENTION.sub(lambda m: "@" + person(m[1]), text)
    return _CHANNEL.sub("#a channel", _ROLE.sub("@a role", text))


def options_shown(game_id: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The combat's options as the bot writes them (``phrase``: on/off, 5, words), only those that differ from the
    game's defaults (an option the game no longer knows is shown as it is); empty when none do."""
    try:
        defaults = {spec.name: spec.default for spec in get_game(game_id).options}
    except RefereeError:
        defaults = {}
    shown = []
    for key, value in sorted(options.items()):
        if value is None or (key in defaults and value == defaults[key]):
            continue
        name, words = phrase(key, value).split(": ", 1)
        shown.append((name, words))
    return shown


__all__ = ["VERIFY_PER_MINUTE", "VerifyCache", "add_routes", "options_shown"]
